# expect.sh - sourced by the CLI tests (sh_cli.sh, plugin_errors.sh); needs
# $wb (the wallbench binary) and counts into $failures.
# expect CODE TEXT ARGS...: exit code CODE and TEXT (fixed string) in the output.
expect() {
    local want=$1 text=$2
    shift 2
    local out rc
    out=$("$wb" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: wallbench $*: exit $rc, expected $want; output:"
        printf '%s\n' "$out" | head -n 5
        failures=$((failures + 1))
    elif ! printf '%s' "$out" | grep -qF -- "$text"; then
        echo "FAIL: wallbench $*: output does not mention '$text':"
        printf '%s\n' "$out" | head -n 5
        failures=$((failures + 1))
    else
        echo "ok: wallbench $* -> $rc"
    fi
}
