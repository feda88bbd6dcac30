#!/bin/sh
# Runs the root package's `mspti_activity` example N times against a libmspti.so (the real one built
# from source, for example) with a CANN home (the stand-ins of accelprof-mocks, or a toolkit), and
# counts per run the kernels delivered against the kernels launched (the example's aclrtLaunchKernel
# API records) and the records dropped. Exits 1 if any run lost a kernel or dropped a record.
#
# usage: kernels-per-run.sh <mspti_activity example> <libmspti.so> <ascend home (with lib64/)> [runs, 30]
#   cargo build --example mspti_activity
#   mspti/scripts/kernels-per-run.sh target/debug/examples/mspti_activity <toolkit>/lib64/libmspti.so \
#       <the stand-ins' ascend home: accelprof_mocks::mspti::ASCEND_HOME> 30
set -u
EXAMPLE=$1; LIBMSPTI=$2; HOME_DIR=$3; RUNS=${4:-30}
bad=0; i=1
while [ "$i" -le "$RUNS" ]; do
  out=$(env -u LD_PRELOAD ASCEND_HOME_PATH="$HOME_DIR" MSPTI_LIBRARY_PATH="$LIBMSPTI" \
        LD_LIBRARY_PATH="$HOME_DIR/lib64" "$EXAMPLE" 2>/dev/null)
  rc=$?
  launched=$(printf '%s\n' "$out" | awk '$1 == "acl_api" && $2 == "aclrtLaunchKernel" { n += $3 } END { print n + 0 }')
  kernels=$(printf '%s\n' "$out" | awk '$1 == "kernel" { n += $3 } END { print n + 0 }')
  records=$(printf '%s\n' "$out" | sed -n 's/^records: //p')
  echo "run $i: exit $rc, $kernels of $launched kernels delivered; records: $records"
  if [ "$rc" -ne 0 ] || [ "$launched" -eq 0 ] || [ "$kernels" -ne "$launched" ] \
     || ! printf '%s\n' "$records" | grep -q ' 0 dropped'; then
    bad=$((bad + 1))
  fi
  i=$((i + 1))
done
echo "$((RUNS - bad)) of $RUNS runs delivered every kernel with nothing dropped"
[ "$bad" -eq 0 ]
