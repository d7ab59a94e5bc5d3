/* roof_contract.h - the roof contract: the one place in harness/ that names
 * a family or a variant. The ceiling family's rows (micro/ceiling.c,
 * kernels/ceiling.h) carry these names in every results file, and the tools
 * read the run's roofs, walls and models from them; the run loop reads the
 * measured roof and the random-access wall from the same rows as they are
 * measured. Everything else in harness/ is family-blind: a family's figure,
 * facts and tests live with the family (micro/, docs/adding-a-family.md).
 * tests/sh_harness_names.sh fails when a family or variant name appears as
 * a string literal anywhere else in harness/; test_registry checks that the
 * ceiling family offers every variant named here. */
#ifndef WB_ROOF_CONTRACT_H
#define WB_ROOF_CONTRACT_H

/* The family whose rows are ceilings (wb_family.ceilings = 1); it runs in
 * every shard and is no operator point. */
#define WB_CEILING_FAMILY "ceiling"

/* Its variants, by the role each plays: */
#define WB_ROOF_INST_VARIANT "inst_issue"      /* the measured roof: G inst/s, from the counters */
#define WB_ROOF_DRAM_VARIANT "dram_read"       /* the measured roof: GB/s of the bytes model */
#define WB_ROOF_INT_ALU_VARIANT "int_alu"      /* the ALU pipe roof (fig-hierarchical) */
#define WB_ROOF_DRAM_WRITE_VARIANT "dram_write" /* writes in the selection model (fig-select) */
#define WB_ROOF_DRAM_COPY_VARIANT "dram_copy"  /* the copy roof transform is judged against */
#define WB_ROOF_MEMCPY_VARIANT "memcpy"        /* the driver's copy (report) */
#define WB_ROOF_L2_VARIANT "l2_read"           /* the L2 roof */
#define WB_ROOF_L1_VARIANT "l1_read"           /* the L1 roof (fig-hierarchical) */
#define WB_ROOF_H2D_VARIANT "h2d"              /* host link: not modelled by a projection */
#define WB_ROOF_D2H_VARIANT "d2h"              /* host link: not modelled by a projection */
#define WB_ROOF_GATHER_WORD_VARIANT "gather_word"     /* the random-access wall, 4-byte requests */
#define WB_ROOF_GATHER_SECTOR_VARIANT "gather_sector" /* the same wall with 32-byte sectors */
#define WB_ROOF_ATOMIC_VARIANT "atom_global"  /* global atomics: at its fastest table, the L2's atomic rate
                                                  (the limiter's `atomics`, G req/s) */

/* The roles a ceiling plays while a run measures it: a variant's role
 * (wb_variant.role, harness/run/family.h, set by the family) tells the run
 * loop which best values make the measured roof and which rates the
 * random-access wall; a variant with a role must carry the role's name
 * (WB_ROOF_ROLE_VARIANTS), which the registry checks, so that the tools
 * find the same rows in the file. */
typedef enum wb_roof_role {
    WB_ROLE_NONE,          /* a ceiling of its own: its best value becomes a file attribute, nothing more */
    WB_ROLE_INST,          /* the measured roof's instruction ceiling */
    WB_ROLE_DRAM,          /* the measured roof's bandwidth */
    WB_ROLE_GATHER_WORD,   /* the random-access wall, 4-byte requests */
    WB_ROLE_GATHER_SECTOR, /* the random-access wall, 32-byte sectors */
    WB_ROLES
} wb_roof_role;
#define WB_ROOF_ROLE_VARIANTS \
    {"", WB_ROOF_INST_VARIANT, WB_ROOF_DRAM_VARIANT, WB_ROOF_GATHER_WORD_VARIANT, WB_ROOF_GATHER_SECTOR_VARIANT}

/* Every variant above, for the check that the ceiling family offers them. */
#define WB_ROOF_CONTRACT_VARIANTS                                                                   \
    {WB_ROOF_INST_VARIANT,      WB_ROOF_DRAM_VARIANT,   WB_ROOF_INT_ALU_VARIANT, WB_ROOF_DRAM_WRITE_VARIANT, \
     WB_ROOF_DRAM_COPY_VARIANT, WB_ROOF_MEMCPY_VARIANT, WB_ROOF_L2_VARIANT,      WB_ROOF_L1_VARIANT,         \
     WB_ROOF_H2D_VARIANT,       WB_ROOF_D2H_VARIANT,    WB_ROOF_GATHER_WORD_VARIANT, WB_ROOF_GATHER_SECTOR_VARIANT, \
     WB_ROOF_ATOMIC_VARIANT}

#endif
