#!/usr/bin/env bash
# sh_rewrites.sh WALLBENCH - "Rewrites the suite has measured" of `wallbench report PROFILE --json`
# (issue 49 item 3, beyond the seeds) on the committed pair profiles (results/h200-pairs): the slow
# form's own kernel (pair_check.py's top kernel: the most time among kernels launched 10 times or
# more, the L2 flush left out) matches its pair's rule, the fast form's kernel does not match its
# own pair's rule. Stated exceptions: select and scan have no rule (their forms' kernels differ in
# no ratio a rule bounds: docs/profiling.md), and the fast form of probe_hash is the direct probe,
# the slow form of probe_part, whose rule it matches. With --suite and the record the suite's times
# and gains are the ones of pair_check's table (results/h200-pairs/pairs.json), its forms the same;
# without --suite, or with a results file that lacks the pair, the pair is named with no time (and the
# reason). The example profile of record against the suite: the rules docs/profiling.md quotes. Bad
# --suite input exits 2.
set -u
W=$1
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
record=$src/results/h200/20261204T200319Z-4531e1f.h5
d=$src/results/h200-pairs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
no() { echo "FAIL: $1"; exit 1; }

for f in "$d"/*-slow.h5 "$d"/*-fast.h5; do
    b=$(basename "$f" .h5)
    "$W" report "$f" --json --suite "$record" > "$tmp/$b.json" || no "report --suite $b exited $?"
done
"$W" report "$d/groupby-slow.h5" --json > "$tmp/nosuite.json" || no "report without --suite exited $?"
"$W" report "$d/groupby-slow.h5" --suite "$record" > "$tmp/text.txt" || no "report text exited $?"

python3 - "$tmp" "$d/pairs.json" "$src/harness/tools" <<'EOF' || no "rewrites table"
import json, sys
tmp, pairs_json, tools = sys.argv[1:]
sys.path.insert(0, tools)
import pair_check
NO_RULE = {"select", "scan"}
CROSS = {("probe_hash", "fast"): "probe_part"}
bad = []


def rewrites(path):
    for t in json.load(open(path))["tables"]:
        if t["title"].startswith("Rewrites the suite has measured"):
            h = t["table"]["header"]
            return [dict(zip(h, r)) for r in t["table"]["rows"]]
    bad.append("%s: no rewrites table" % path)
    return []


for row in json.load(open(pairs_json))["rows"]:
    pair = row["pair"]
    for role in ("slow", "fast"):
        path = "%s/%s-%s.json" % (tmp, pair, role)
        kernel = pair_check.top_kernel(path)["Kernel"]
        mine = [r for r in rewrites(path) if r["Kernel"] == kernel]
        named = {r["Pair"] for r in mine}
        want = set()
        if role == "slow" and pair not in NO_RULE:
            want.add(pair)
        if (pair, role) in CROSS:
            want.add(CROSS[(pair, role)])
        if named != want:
            bad.append("%s %s (%s): rules %s, want %s" % (pair, role, kernel, sorted(named), sorted(want)))
        for r in mine:
            if r["Pair"] != pair:
                continue
            if (r["Slow form"], r["Fast form"], r["n"]) != (row["slow"], row["fast"], row["n"]):
                bad.append("%s: forms %s -> %s at %s, pair_check %s -> %s at %s" % (
                    pair, r["Slow form"], r["Fast form"], r["n"], row["slow"], row["fast"], row["n"]))
            gain = r["Suite gain (x)"]
            if not isinstance(gain, float) or abs(gain / row["measured_gain"] - 1) > 1e-12:
                bad.append("%s: suite gain %s, pair_check measured %s" % (pair, gain, row["measured_gain"]))
            if abs(r["Suite slow (ms)"] / r["Suite fast (ms)"] - gain) > 1e-9 * gain:
                bad.append("%s: gain is not slow / fast" % pair)
no_suite = rewrites(tmp + "/nosuite.json")
if not no_suite or any(r["Suite gain (x)"] is not None or r["Suite slow (ms)"] is not None for r in no_suite):
    bad.append("without --suite: %s" % no_suite)
elif (no_suite[0]["Pair"], no_suite[0]["Slow form"], no_suite[0]["Fast form"]) != ("groupby", "global", "shared"):
    bad.append("without --suite the rule's pair and forms: %s" % no_suite[0])
print("\n".join(bad) or "rewrites ok")
sys.exit(1 if bad else 0)
EOF
grep -q 'the suite measured 0.886 ms -> 0.044 ms (19.96x) for groupby global -> shared at n=16777216 on NVIDIA H200' "$tmp/text.txt" ||
    no "the text report's sentence: $(grep -i 'suite measured' "$tmp/text.txt")"

# The example's profile of record against the suite (docs/profiling.md quotes it): 11 kernels match,
# nine transform's rule, cupy_bincount_with_weight_kernel groupby's, cupy_cub_any_pass1 expr's; its
# top kernel (indexFuncLargeIndex) none.
"$W" report "$src/results/h200-profile/tpch-both.h5" --suite "$src/results/h200/20261202T140657Z-c2dfc31.h5" --json \
    > "$tmp/tpch.json" || no "report tpch-both.h5 --suite exited $?"
python3 - "$tmp/tpch.json" <<'EOF2' || no "tpch-both against the suite's rules: not what docs/profiling.md says"
import json, sys
rows = []
for t in json.load(open(sys.argv[1]))["tables"]:
    if t["title"].startswith("Rewrites the suite has measured"):
        h = t["table"]["header"]
        rows = [dict(zip(h, r)) for r in t["table"]["rows"]]
pairs = sorted(r["Pair"] for r in rows)
by_kernel = {r["Kernel"]: r["Pair"] for r in rows}
ok = (len(rows) == 11 and pairs.count("transform") == 9 and by_kernel.get("cupy_bincount_with_weight_kernel") == "groupby"
      and by_kernel.get("cupy_cub_any_pass1") == "expr" and not any("indexFuncLargeIndex" in k for k in by_kernel))
print("tpch-both rewrites: %s" % [(r["Kernel"], r["Pair"]) for r in rows])
sys.exit(0 if ok else 1)
EOF2

# A results file without the pair's rows (the pairs' ceiling run): the row stays, no time, the reason said.
"$W" report "$d/groupby-slow.h5" --suite "$d"/ceilings/*.h5 > "$tmp/nopairs.txt" || no "a --suite file without the pair exited $?"
grep -q 'no suite time: pair groupby: no rows of both global and shared at n = 16777216' "$tmp/nopairs.txt" ||
    no "a --suite file without the pair: $(grep -i 'suite' "$tmp/nopairs.txt" | head -n 3)"

# Bad --suite input: a missing file, a profile, --suite on a results file.
"$W" report "$d/groupby-slow.h5" --suite "$tmp/none.h5" > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || no "a missing --suite file must exit 2"
"$W" report "$d/groupby-slow.h5" --suite "$d/groupby-fast.h5" > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || no "a profile as --suite must exit 2"
grep -q 'wants a results file' "$tmp/err" || no "profile as --suite: $(cat "$tmp/err")"
"$W" report "$record" --suite "$record" > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || no "--suite on a results file must exit 2"
grep -q -- '--suite is for a profile file' "$tmp/err" || no "--suite on results: $(cat "$tmp/err")"
# An unreadable pairs.tsv (WB_PAIRS) is bad input too, named.
WB_PAIRS=$tmp/none.tsv "$W" report "$d/groupby-slow.h5" > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || no "a missing pairs.tsv must exit 2"
grep -q 'none.tsv' "$tmp/err" || no "missing pairs.tsv: $(cat "$tmp/err")"
echo ok
