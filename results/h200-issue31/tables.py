"""tables.py - the numbers of README.md, recomputed from the files beside it.

  python3 results/h200-issue31/tables.py [RECORD.h5]

SSB SF 100: the fastest point per query and form (any launch shape in the
file), the best form against its bytes model at the file's own DRAM-read
ceiling, DRAM bytes and instructions per DRAM sector of the best; then the
bitmap form in two experiments, each two files from one board (the key
stream loaded a tile ahead or not; the L2's 64- or 32-byte fetch); then the
partitioned probe at 2^28 keys into the 1 GiB table, partition and probe
apart; then the transform's best scalar or vector form at 2^26, 2^28 and 2^29
against the file's cudaMemcpy ceiling, and against the memcpy variant of the
same size; then the default run's time split, run by run. Between them, each
later experiment folder's variants against its `main` build (variant_table), and for the
cluster folders the fastest variant per query (best_of);
and Q2.1-Q2.3 on one board against the fastest read of their DRAM sectors
(replay_table, sector_replay.py's output); and session 23's warp-specialised
form against the plain kernels, P producer warps of 32 (best_of with each cell's shape).
Given a file (a record), the SSB, probe and transform tables of that file
alone.""" 
import os
import sys

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
from results_attrs import attrs_with_ceilings  # noqa: E402

FORMS = ["tiled", "direct", "packed", "bitmap"]


def rows(path):
    with h5py.File(os.path.join(HERE, path), "r") as f:
        attrs = attrs_with_ceilings(f)
        pts = f["points"][()]
    return attrs, [r for r in pts if r["status"] == b"ok"]


def text(attrs, key):
    v = attrs.get(key, b"")
    return v.decode() if isinstance(v, bytes) else str(v)


SF100 = 600000000


def fastest(pts, prefix, n=SF100):
    """(query, form) -> the fastest ok row of that query and form at n rows."""
    best = {}
    for r in pts:
        name = r["name"].decode()
        if not name.startswith(prefix) or r["n"] != n:
            continue
        query, form = name.split("/")[1].split("_")
        key = (query, form)
        if key not in best or r["time_median_ms"] < best[key]["time_median_ms"]:
            best[key] = r
    return best


def dram_gb(r):
    return (r["dram_sectors_read"] + r["dram_sectors_write"]) * 32 / 1e9


def ssb_table(path):
    attrs, pts = rows(path)
    read = attrs["ceiling_dram_read_gbps"]
    best = fastest(pts, "ssb/")
    print(f"== {path}: revision {text(attrs, 'git_revision')[:7]}, board {text(attrs, 'gpu_uuid')}, "
          f"DRAM read ceiling {read:.0f} GB/s")
    print("| query | " + " | ".join(FORMS) + " | best / model | DRAM GB best / model | inst/sector (shape) |")
    print("|---|" + "---|" * (len(FORMS) + 3))
    total = model_total = 0.0
    below = []
    for query in sorted({q for q, _ in best}):
        times = {f: best[(query, f)]["time_median_ms"] for f in FORMS if (query, f) in best}
        form = min(times, key=times.get)
        r = best[(query, form)]
        model_ms = r["bytes_model"] / read / 1e6
        share = model_ms / times[form]
        total += times[form]
        model_total += model_ms
        if share < 0.6:
            below.append(f"{query} {share:.0%}")
        sectors = r["dram_sectors_read"] + r["dram_sectors_write"]
        shape = f"ILP {r['ilp']}, occ {r['occupancy_target']:g}, block {r['block']}"
        print(f"| {query} | " + " | ".join(f"{times[f]:.3f}" if f in times else "-" for f in FORMS) +
              f" | {form} {times[form]:.3f} / {model_ms:.3f} = {share:.0%} | {dram_gb(r):.2f} / "
              f"{r['bytes_model'] / 1e9:.2f} | {r['inst'] / sectors:.1f} ({shape}) |")
    print(f"sum of the best: {total:.2f} ms; bytes model {model_total:.2f} ms; "
          f"under 60% of the model: {', '.join(below) or 'none'}")


def pair(label, path_a, path_b, name_a, name_b):
    (attrs, a), (_, b) = rows(path_a), rows(path_b)
    fa, fb = fastest(a, "ssb/"), fastest(b, "ssb/")
    print(f"== {label}: {path_a} vs {path_b}, board {text(attrs, 'gpu_uuid')} "
          f"(fastest shape per point in each file)")
    print(f"| query form | {name_a} ms | {name_b} ms | change | DRAM GB {name_a} / {name_b} |")
    print("|---|---|---|---|---|")
    sa = sb = 0.0
    for key in sorted(set(fa) & set(fb)):
        ra, rb = fa[key], fb[key]
        ta, tb = ra["time_median_ms"], rb["time_median_ms"]
        if key[1] == "bitmap":
            sa, sb = sa + ta, sb + tb
        print(f"| {key[0]} {key[1]} | {ta:.3f} | {tb:.3f} | {tb / ta - 1:+.1%} | "
              f"{dram_gb(ra):.2f} / {dram_gb(rb):.2f} |")
    print(f"bitmap form summed: {sa:.2f} -> {sb:.2f} ms")


def probe_table(path):
    attrs, pts = rows(path)
    direct, parted, part = {}, {}, {}
    for r in pts:
        name = r["name"].decode()
        if "/n:268435456/" not in name or "table_entries:268435456/" not in name:
            continue
        variant = name.split("/")[1]
        if variant == "direct":
            direct[r["ilp"]] = r["time_median_ms"]
        elif variant in ("partitioned", "partition"):
            (parted if variant == "partitioned" else part)[r["partitions"]] = r["time_median_ms"]
    best = min(direct.values())
    print(f"== {path}: revision {text(attrs, 'git_revision')[:7]}, board {text(attrs, 'gpu_uuid')}")
    print(f"direct probe, fastest ILP: {best:.3f} ms ({', '.join(f'ILP {k} {v:.3f}' for k, v in sorted(direct.items()))})")
    print("| partitions | partitioned ms | partition ms | probe ms (difference) | partitioned vs direct |")
    print("|---|---|---|---|---|")
    for p in sorted(parted):
        print(f"| {p} | {parted[p]:.3f} | {part[p]:.3f} | {parted[p] - part[p]:.3f} | {best / parted[p]:.2f}x |")


def transform_table(path):
    attrs, pts = rows(path)
    memcpy = attrs["ceiling_memcpy_gbps"]
    print(f"== {path}: revision {text(attrs, 'git_revision')[:7]}, board {text(attrs, 'gpu_uuid')}, "
          f"cudaMemcpy ceiling {memcpy:.0f} GB/s")
    print("| n | dtype | best scalar/vector form (shape) | GB/s | vs cudaMemcpy |")
    print("|---|---|---|---|---|")
    best = {}
    for r in pts:
        name = r["name"].decode()
        if not name.startswith(("transform/scalar/", "transform/vec")):
            continue
        key = (int(r["n"]), r["dtype"].decode())
        if key not in best or r["gbps_model"] > best[key]["gbps_model"]:
            best[key] = r
    for (n, dtype), r in sorted(best.items()):
        print(f"| 2^{n.bit_length() - 1} | {dtype} | {r['variant'].decode()} ILP {r['ilp']} | "
              f"{r['gbps_model']:.0f} | {r['gbps_model'] / memcpy:.3f} |")


def transform_vs_memcpy(path):
    """The best scalar or vector form against the file's memcpy variant at the
    same size and dtype: cudaMemcpyAsync of the same bytes (fastest shape)."""
    attrs, pts = rows(path)
    print(f"== {path}: revision {text(attrs, 'git_revision')[:7]}, board {text(attrs, 'gpu_uuid')}, "
          f"the ceiling's one 2 GiB cudaMemcpy {attrs['ceiling_memcpy_gbps']:.0f} GB/s")
    print("| n | dtype | memcpy ms (GB/s) | best scalar/vector form (shape) ms (GB/s) | vs memcpy | vs the ceiling |")
    print("|---|---|---|---|---|---|")
    memcpy, best = {}, {}
    for r in pts:
        name = r["name"].decode()
        key = (int(r["n"]), r["dtype"].decode())
        if name.startswith("transform/memcpy/"):
            memcpy[key] = r
        elif name.startswith(("transform/scalar/", "transform/vec")) and r["sm_limit"] <= 0:
            if key not in best or r["time_median_ms"] < best[key]["time_median_ms"]:
                best[key] = r
    for key in sorted(set(memcpy) & set(best)):
        m, b = memcpy[key], best[key]
        print(f"| 2^{key[0].bit_length() - 1} | {key[1]} | {m['time_median_ms']:.4f} ({m['gbps_model']:.0f}) | "
              f"{b['variant'].decode()} ILP {b['ilp']}, block {b['block']} {b['time_median_ms']:.4f} "
              f"({b['gbps_model']:.0f}) | {m['time_median_ms'] / b['time_median_ms']:.3f} | "
              f"{b['gbps_model'] / attrs['ceiling_memcpy_gbps']:.3f} |")


_UNPACKED = {}


def unpacked(folder):
    """A folder of h5 files, or a .tgz of them (session 19's: the files compress about 6x and the tree
    travels to the GPU under 64 MiB), unpacked once into a temporary folder."""
    if not folder.endswith(".tgz"):
        return os.path.join(HERE, folder)
    if folder not in _UNPACKED:
        import atexit, shutil, tarfile, tempfile
        d = tempfile.mkdtemp(prefix="wb-tables-")
        atexit.register(shutil.rmtree, d, True)
        with tarfile.open(os.path.join(HERE, folder)) as t:  # plain files at the top only
            t.extractall(d, members=[m for m in t.getmembers() if m.isfile() and "/" not in m.name])
        _UNPACKED[folder] = d
    return _UNPACKED[folder]


def variant_table(folder, base="current", other="pipe"):
    """The bitmap form of one build against another's, one board (files base-* and other-*, one or
    two runs each: the faster per query and ILP)."""
    import glob
    def best(prefix):
        out = {}
        for path in sorted(glob.glob(os.path.join(unpacked(folder), prefix + "-*.h5"))):
            _, pts = rows(os.path.relpath(path, HERE))
            for r in pts:
                name = r["name"].decode()
                if not name.startswith("ssb/"):
                    continue
                key = (name.split("/")[1].split("_")[0], int(r["ilp"]))
                out[key] = min(out.get(key, 1e9), r["time_median_ms"])
        return out
    a, b = best(base), best(other)
    attrs, _ = rows(sorted(glob.glob(os.path.join(unpacked(folder), other + "-*.h5")))[0])
    print(f"== {folder}: revision {text(attrs, 'git_revision')[:7]}, board {text(attrs, 'gpu_uuid')}")
    print(f"| query | ILP 4 {base} / {other} ms | ILP 8 {base} / {other} ms | best {base} / best {other} |")
    print("|---|---|---|---|")
    sa = sb = 0.0
    def cell(q, ilp):  # a point a variant skipped (its plan did not fit) shows as "-"
        x, y = a.get((q, ilp)), b.get((q, ilp))
        return f"{x:.3f} / {y:.3f} ({y / x - 1:+.1%})" if x and y else " / ".join(f"{v:.3f}" if v else "-" for v in (x, y))
    for q in sorted({k[0] for k in a} & {k[0] for k in b}):
        ba = min(a.get((q, i), 1e9) for i in (4, 8))
        bb = min(b.get((q, i), 1e9) for i in (4, 8))
        sa, sb = sa + ba, sb + bb
        print(f"| {q} | {cell(q, 4)} | {cell(q, 8)} | {ba:.3f} / {bb:.3f} |")
    print(f"bitmap form summed (best shape): {base} {sa:.2f} ms, {other} {sb:.2f} ms")


def best_of(folder, labels, shapes=False):
    """Per query, the fastest bitmap point over the folder's variants (files LABEL-1.h5, one build on
    one board), its share of the bytes model at the main file's DRAM-read ceiling, and the sums; with
    shapes, every variant's cell also names its ILP and its share."""
    files = {l: rows(os.path.join(unpacked(folder), l + "-1.h5")) for l in labels}
    read = files[labels[0]][0]["ceiling_dram_read_gbps"]
    best = {l: fastest(pts, "ssb/") for l, (_, pts) in files.items()}
    print(f"== {folder}: the fastest variant per query (the fastest shape in each file), model at {read:.0f} GB/s")
    print("| query | " + " | ".join(f"{l} ms" for l in labels) + " | fastest | share of model | grid |")
    print("|---|" + "---|" * (len(labels) + 3))
    sums = dict.fromkeys(labels, 0.0)
    fastest_sum = 0.0
    for key in sorted(best[labels[0]]):
        t = {l: best[l][key]["time_median_ms"] for l in labels if key in best[l]}
        for l in t:
            sums[l] += t[l]
        win = min(t, key=t.get)
        r = best[win][key]
        fastest_sum += t[win]
        cell = lambda l: (f"{t[l]:.3f} ({best[l][key]['ilp']}, {best[l][key]['bytes_model'] / read / 1e6 / t[l]:.1%})"
                          if shapes else f"{t[l]:.3f}")
        print(f"| {key[0]} | " + " | ".join(cell(l) for l in labels) +
              f" | {win} | {r['bytes_model'] / read / 1e6 / t[win]:.1%} | {r['grid']} |")
    print("summed: " + ", ".join(f"{l} {v:.3f}" for l, v in sums.items()) + f", fastest per query {fastest_sum:.3f} ms")


def replay_table(folder, h5, txt):
    """Q2.1-Q2.3 on one board: the bitmap form's fastest point (wallbench), its bytes model at the
    file's read ceiling, and the fastest read of the same DRAM sectors by sector_replay.py (the txt's
    last run, same board, next device call): model = the bytes model's sectors, plan = those plus the
    part key reloaded where both filters pass."""
    attrs, pts = rows(os.path.relpath(os.path.join(unpacked(folder), h5), HERE))
    read = attrs["ceiling_dram_read_gbps"]
    best = fastest(pts, "ssb/")
    floors = {}
    with open(os.path.join(HERE, txt)) as f:
        for line in f:  # later runs overwrite earlier ones
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 7 and cells[0].startswith("q") and cells[0] != "query":
                floors[(cells[0], cells[1])] = float(cells[4])
    print(f"== {folder} and {txt}: board {text(attrs, 'gpu_uuid')}, DRAM read ceiling {read:.0f} GB/s")
    print("| query | bitmap ms | model ms | share of model | replay: model / plan sectors ms | "
          "model / replay of its sectors | replay of the plan's / bitmap |")
    print("|---|---|---|---|---|---|---|")
    for (query, form), r in sorted(best.items()):
        model_ms = r["bytes_model"] / read / 1e6
        t = r["time_median_ms"]
        m, pl = floors[(query, "model")], floors[(query, "plan")]
        print(f"| {query} | {t:.3f} (ILP {r['ilp']}) | {model_ms:.3f} | {model_ms / t:.1%} | {m:.3f} / {pl:.3f} | "
              f"{model_ms / m:.1%} | {pl / t:.1%} |")


def default_runs(paths):
    """The default run's time split, run by run (their --summary-json files)."""
    import json
    print("| revision | file | points | wall s | data s | verify s | counter pass s | timing pass s | counter / timing |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        with open(os.path.join(HERE, path)) as f:
            s = json.load(f)
        t = s["time"]["total"]
        rev = os.path.basename(s["results_file"]).split("-")[1].split(".")[0]
        print(f"| {rev} | {path} | {t['points']} | {s['time']['wall_s']:.1f} | {t['data_s']:.1f} | "
              f"{t['verify_s']:.1f} | {t['counter_pass_s']:.1f} | {t['timing_pass_s']:.1f} | "
              f"{t['counter_pass_s'] / t['timing_pass_s']:.3f} |")


if __name__ == "__main__" and len(sys.argv) > 1:
    # A record: python3 tables.py ../h200/<record>.h5 (path relative to this folder or absolute).
    path = os.path.relpath(os.path.abspath(sys.argv[1]), HERE)
    ssb_table(path)
    probe_table(path)
    transform_vs_memcpy(path)
elif __name__ == "__main__":
    ssb_table("ssb-sf100-c019eac.h5")
    pair("the key stream a tile ahead", "ssb-queue-ec82fa7.h5", "ssb-queue-ahead-ec82fa7.h5", "queue", "ahead")
    pair("the L2's fetch granularity", "ssb-l2fetch64-d1150f6.h5", "ssb-l2fetch32-d1150f6.h5", "64 B", "32 B")
    probe_table("probe-2to28-c019eac.h5")
    transform_table("transform-ae130f2.h5")
    variant_table("ssb-pipe-fd2800a.tgz")
    for other in ["mask-block1024-slots4", "block768-slots8", "block640-slots8", "block768-slots4"]:
        variant_table("ssb-slots-3284a9f.tgz", "main", other)
    variant_table("ssb-earlycode-0af7f57.tgz", "main", "early")
    variant_table("ssb-cached-6857024.tgz", "main", "cached")
    variant_table("ssb-cached-6857024.tgz", "cached", "datelast20")
    variant_table("ssb-byshare-e6dfc82.tgz", "main", "byshare")
    variant_table("ssb-codes-bd474e1.tgz", "main", "codes")
    for other in ["prefetch", "split", "splitB", "splitlast"]:
        variant_table("ssb-split-5a00091.tgz", "main", other)
    for other in ["bulk", "splitbulk", "splitBbulk", "splitB"]:
        variant_table("ssb-bulk-5de1388.tgz", "main", other)
    for other in ["c4", "c8", "c2"]:
        variant_table("ssb-cluster-14ea724.tgz", "main", other)
    best_of("ssb-cluster-14ea724.tgz", ["main", "c2", "c4", "c8"])
    for other in ["auto", "B-off", "B-auto", "c2q4a"]:
        variant_table("ssb-cluster-3054608.tgz", "off", other)
    best_of("ssb-cluster-3054608.tgz", ["off", "auto", "B-off", "B-auto", "c2q4a"])
    variant_table("ssb-rest-21ad853.tgz", "norest", "rest")
    for other in ["d1", "d2", "d4"]:
        variant_table("ssb-prefetch-54cfa5c.tgz", "d0", other)
    for other in ["off", "defer"]:
        variant_table("ssb-defer-5edf4e0.tgz", "main", other)
    variant_table("ssb-scan-d1ddef7.tgz", "main", "both")
    for other in ["both", "warpidx", "ballot"]:
        variant_table("ssb-scan-split-d1ddef7.tgz", "main", other)
    for other in ["warpidx", "defer2", "next"]:
        variant_table("ssb-next-c737c06.tgz", "main", other)
    for other in ["warpidx", "early0", "dateorder", "both"]:
        variant_table("ssb-order-cf852a9.tgz", "main", other)
    variant_table("ssb-order-cf852a9.tgz", "warpidx", "dateorder")
    for other in ["spreadearly", "c8", "c8dense"]:
        variant_table("ssb-spread-361bf74.tgz", "main", other)
    variant_table("ssb-compact-4eb3c4c.tgz", "main", "all")
    for other in ["compact", "hoist"]:
        variant_table("ssb-compact-50966f9.tgz", "main", other)
    for other in ["pred", "pairpred", "pair"]:
        variant_table("ssb-pair-pred-886f345.tgz", "main", other)
    for other in ["age", "every", "drain", "both"]:
        variant_table("ssb-age-prefetch-b37fc67.tgz", "main", other)
    for other in ["age", "cpa"]:
        variant_table("ssb-cpa-e012582.tgz", "main", other)
    variant_table("ssb-c2-b37fc67.tgz", "plain", "c2")
    replay_table("q2-sameboard-b37fc67.tgz", "q2-sameboard-b37fc67.h5", "sector-replay-dd674e5e.txt")
    for run in ["fence", "relaxed"]:  # session 23's warp-specialised form: P producer warps of 32
        best_of("ssb-ws-628634c.tgz", [f"{run}-{l}" for l in ["off", "ws16", "ws20", "ws24", "ws28"]], shapes=True)
    for other in ["atom", "latekey", "latekeyatom"]:
        variant_table("ssb-latekey-atom-95f9348.tgz", "main", other)
    best_of("ssb-b768-4f19fff.tgz", ["main", "b768", "b768lk"])
    transform_vs_memcpy("transform-memcpy-4a8b068.h5")
    default_runs(["default-493c106-summary.json", "default-c019eac-summary.json", "default-619e66f-summary.json", "default-4a8b068-summary.json",
                  "default-910a51a-summary.json", "default-9f84ec6-summary.json", "default-84a651a-summary.json",
                  "../h200/quick-3f309d8-summary.json", "default-f6dc7c5-summary.json", "default-7bdb43d-summary.json",
                  "../h200/baseline-quick-summary.json"])
