# gpu_skip.sh - sourced by the GPU test scripts after they set $wb (the wallbench binary): exits 77
# (CTest "Skipped") with wallbench's own reason when it finds no usable GPU.
if ! "$wb" info --quiet >/dev/null 2>&1; then
    echo "SKIP: no usable GPU ($("$wb" info --quiet 2>&1 | head -n 1))"
    exit 77
fi
