/* test_toy_ref.c - the toy family (tests/gpu_family_recipe.sh) is registered,
 * after the built-in ones, with its two variants. */
#include <string.h>

#include "tests/check.h"
#include "harness/run/family.h"
#include "micro/families.h"

int main(void) {
    wb_err e;
    CHECK(wb_micro_families_add(&e) == WB_OK);
    const wb_family *f = wb_family_find("toy");
    CHECK(f && f->nvariants == 2 && wb_family_variant(f, "wide") == 1);
    return TEST_DONE();
}
