/* test_registry.c - the harness's family registry: the built-in families of
 * micro/families.def in file order, a second family of a taken name refused
 * with a message naming it, a family with a missing callback, sweep or
 * variant refused; wb_sink_add fills family and variant from the family's
 * table and refuses a variant_id the family does not have; every built-in
 * variant table matches its enum count (also checked at compile time) and
 * every test sweep gives points of its own family only; the ceiling family
 * offers every variant of the roof contract (harness/base/roof_contract.h),
 * the one place the harness names them, and gives each roof role to one
 * variant of the contract's name; a role elsewhere, or under another name,
 * is refused. */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "harness/base/roof_contract.h"
#include "harness/run/family.h"
#include "micro/families.h"

static const wb_variant two[] = {{"a", "first"}, {"b", "second"}};
static int no_sweep(const wb_sink *s) { (void)s; return WB_OK; }
static double bytes(const wb_point *p) { (void)p; return 0; }
static int same(const wb_point *a, const wb_point *b) { (void)a, (void)b; return 1; }
static int create(const wb_point *p, uint64_t seed, void **d, wb_err *e) { (void)p, (void)seed, (void)e; *d = NULL; return WB_OK; }
static void destroy(void *d) { (void)d; }
static int plan(void *d, wb_point *p, wb_err *e) { (void)d, (void)p, (void)e; return WB_OK; }
static int reset(void *d, const wb_point *p, int poison, cudaStream_t s, wb_err *e) { (void)d, (void)p, (void)poison, (void)s, (void)e; return WB_OK; }
static int launch(void *d, const wb_point *p, cudaStream_t s, wb_err *e) { (void)d, (void)p, (void)s, (void)e; return WB_OK; }
static int verify(void *d, const wb_point *p, wb_err *e) { (void)d, (void)p, (void)e; return WB_OK; }

#define FAMILY(n) {.name = n, .summary = "test", .variants = two, .nvariants = 2, \
    .sweep = {no_sweep, no_sweep, no_sweep}, .device_bytes = bytes, .same_data = same, .data_create = create, \
    .data_destroy = destroy, .plan = plan, .reset = reset, .launch = launch, .verify = verify}

static wb_point got;
static int ngot;
static int keep(void *ctx, const wb_point *p) { (void)ctx; got = *p; ngot++; return WB_OK; }

static int all_of(void *ctx, const wb_point *p) {
    const wb_family *f = ctx;
    return strcmp(p->family, f->name) == 0 && p->variant_id >= 0 && p->variant_id < f->nvariants &&
                   strcmp(p->variant, f->variants[p->variant_id].name) == 0
               ? WB_OK
               : WB_ERR;
}

int main(void) {
    wb_err e = {""};
    CHECK(wb_micro_families_add(&e) == WB_OK);
    static const char *const order[] = { /* the list, in its order */
#define WB_FAMILY(name, figure) #name,
#include "micro/families.def"
#undef WB_FAMILY
    };
    const int nbuiltin = (int)(sizeof order / sizeof order[0]);
    CHECK(nbuiltin >= 8 && strcmp(order[0], "ceiling") == 0 && wb_registry_count() == nbuiltin);
    for (int i = 0; i < nbuiltin; i++) CHECK(wb_registry_at(i) && strcmp(wb_registry_at(i)->name, order[i]) == 0);
    CHECK(wb_family_builtin(wb_registry_at(nbuiltin - 1)));
    CHECK(wb_registry_at(wb_registry_count()) == NULL && wb_registry_at(-1) == NULL);
    CHECK(wb_family_find("select") == wb_registry_at(2) && wb_family_find("nosuch") == NULL);
    CHECK(wb_family_variant(wb_family_find("groupby"), "sort") == 2);

    /* The roof contract: the family of ceilings, with every variant the tools read roofs and walls from. */
    const wb_family *ceiling = wb_family_find(WB_CEILING_FAMILY);
    CHECK(ceiling && ceiling->ceilings == 1);
    static const char *const roles[] = WB_ROOF_CONTRACT_VARIANTS;
    for (size_t i = 0; ceiling && i < sizeof roles / sizeof roles[0]; i++) {
        if (wb_family_variant(ceiling, roles[i]) < 0) fprintf(stderr, "ceiling lacks the contract's '%s'\n", roles[i]);
        CHECK(wb_family_variant(ceiling, roles[i]) >= 0);
    }
    for (int i = 0; i < wb_registry_count(); i++) /* one family of ceilings: the shards and the tools know it by name */
        CHECK(!wb_registry_at(i)->ceilings || wb_registry_at(i) == ceiling);
    static const char *const role_name[WB_ROLES] = WB_ROOF_ROLE_VARIANTS;
    for (int role = WB_ROLE_NONE + 1; ceiling && role < WB_ROLES; role++) {
        int holders = 0, v = wb_family_variant(ceiling, role_name[role]);
        for (int i = 0; i < ceiling->nvariants; i++) holders += (int)ceiling->variants[i].role == role;
        CHECK(holders == 1 && v >= 0 && (int)ceiling->variants[v].role == role);
    }

    /* The built-in sweeps: every point names its own family and a variant of its table. */
    for (int i = 0; i < wb_registry_count(); i++) {
        const wb_family *f = wb_registry_at(i);
        wb_device dev;
        memset(&dev, 0, sizeof dev);
        dev.sms = 132, dev.max_threads_per_sm = 2048, dev.l2_bytes = 50 << 20;
        wb_sink s = {f, &dev, all_of, (void *)f};
        CHECK(f->sweep[WB_SWEEP_TEST](&s) == WB_OK);
    }

    /* A second "select" is refused, naming it; the registry is unchanged. */
    const int before = wb_registry_count();
    static const wb_family dup = FAMILY("select");
    CHECK(wb_registry_add(&dup, &e) == WB_ERR && strstr(e.msg, "family 'select' collides with the built-in family"));
    CHECK(wb_registry_count() == before);

    static const wb_family ok = FAMILY("plugin_x");
    CHECK(wb_registry_add(&ok, &e) == WB_OK && wb_family_find("plugin_x") == &ok && !wb_family_builtin(&ok));
    CHECK(wb_registry_add(&ok, &e) == WB_ERR && strstr(e.msg, "collides with the already loaded family"));
    CHECK(wb_registry_count() == before + 1);

    /* A roof role outside a family of ceilings, or under another name than the contract's, is refused. */
    static const wb_variant roled[] = {{WB_ROOF_DRAM_VARIANT, "the DRAM roof", WB_ROLE_DRAM}, {"b", "second"}};
    wb_family not_ceilings = FAMILY("not_ceilings");
    not_ceilings.variants = roled;
    CHECK(wb_registry_add(&not_ceilings, &e) == WB_ERR && strstr(e.msg, "variant 'dram_read' plays roof role"));
    static const wb_variant misnamed[] = {{"a", "first", WB_ROLE_INST}, {"b", "second"}};
    wb_family wrong_name = FAMILY("wrong_name");
    wrong_name.ceilings = 1, wrong_name.variants = misnamed;
    CHECK(wb_registry_add(&wrong_name, &e) == WB_ERR && strstr(e.msg, "the roof contract names"));
    wb_family right = FAMILY("right_roles");
    right.ceilings = 1, right.variants = roled;
    CHECK(wb_registry_add(&right, &e) == WB_OK);
    CHECK(wb_registry_count() == before + 2);

    wb_family no_verify = FAMILY("no_verify");
    no_verify.verify = NULL;
    CHECK(wb_registry_add(&no_verify, &e) == WB_ERR && strstr(e.msg, "lacks its variant names or one of its callbacks"));
    wb_family no_full = FAMILY("no_full");
    no_full.sweep[WB_SWEEP_FULL] = NULL;
    CHECK(wb_registry_add(&no_full, &e) == WB_ERR && strstr(e.msg, "a sweep of each kind"));
    wb_family no_variants = FAMILY("no_variants");
    no_variants.nvariants = 0;
    CHECK(wb_registry_add(&no_variants, &e) == WB_ERR && strstr(e.msg, "no_variants' lacks its variant names"));
    static const wb_variant twice[] = {{"a", ""}, {"a", ""}};
    wb_family twice_f = FAMILY("twice");
    twice_f.variants = twice;
    CHECK(wb_registry_add(&twice_f, &e) == WB_ERR && strstr(e.msg, "variant 'a' twice"));
    wb_family long_name = FAMILY("a_family_name_too_long");
    CHECK(wb_registry_add(&long_name, &e) == WB_ERR && strstr(e.msg, "longer than"));

    /* The harness names the point. */
    wb_sink s = {&ok, NULL, keep, NULL};
    wb_point p;
    wb_point_init(&p);
    p.variant_id = 1;
    CHECK(wb_sink_add(&s, &p) == WB_OK && ngot == 1);
    CHECK(strcmp(got.family, "plugin_x") == 0 && strcmp(got.variant, "b") == 0);
    p.variant_id = 2;
    CHECK(wb_sink_add(&s, &p) == WB_ERR && ngot == 1);

    wb_registry_clear();
    CHECK(wb_registry_count() == 0 && wb_family_find("select") == NULL);
    return TEST_DONE();
}
