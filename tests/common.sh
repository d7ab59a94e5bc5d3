# common.sh - sourced first by the shell tests: set -u; $src, the source tree (WB_SOURCE_DIR, else
# the folder above tests/); $tmp, a scratch folder removed at exit; $failures and bad MESSAGE, which
# says FAIL and counts; has_lines OUT TEXT..., a bad for each TEXT missing from OUT; finish, the
# last line: "<test>: all passed" and exit 0, or the count and 1.
set -u
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }
# has_lines OUT TEXT...: a failure for each TEXT not found (as a fixed string) in OUT
has_lines() {
    local out=$1 want
    shift
    for want in "$@"; do printf '%s\n' "$out" | grep -qF -- "$want" || bad "no '$want' in: $out"; done
}
finish() {
    local name
    name=$(basename "$0" .sh)
    [ "$failures" -eq 0 ] && { echo "$name: all passed"; exit 0; }
    echo "$name: $failures failure(s)"
    exit 1
}
