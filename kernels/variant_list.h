/* variant_list.h - how a family's variants are listed once. kernels/<f>.h
 * writes its list as a macro of rows X(ENUM, "name", "one-line summary");
 * WB_VARIANT_ENUM turns the list into the kernels' enum, and
 * WB_VARIANT_TABLE (harness/run/family.h) into the family's name table in
 * micro/<f>.c, so that enum order, names and summaries cannot drift apart.
 * A new variant is one row here plus its kernel code. */
#ifndef WB_VARIANT_LIST_H
#define WB_VARIANT_LIST_H

#define WB_VARIANT_ENUM(id, name, summary) id,

#endif
