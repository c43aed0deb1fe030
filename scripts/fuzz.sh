#!/usr/bin/env bash
# Runs the libFuzzer targets that `make fuzz` built (Fuzz/, into .build-fuzz/release), each for a bounded time.
#
#   scripts/fuzz.sh SECONDS TARGET...      (make fuzz runs it: FUZZ_SECONDS, FUZZ_TARGETS)
#
# Each target starts from the corpus it grew before (.build-fuzz/corpus/TARGET, kept out of git) plus the seeds in
# fixtures/fuzz/TARGET, with its dictionary from fixtures/fuzz. Crashes, leaks, timeouts and out-of-memory inputs go
# to .build-fuzz/artifacts/TARGET/, libFuzzer's output to .build-fuzz/logs/TARGET.log. Every target runs even when
# an earlier one failed; the script fails when any did, naming the inputs to replay
# (`.build-fuzz/release/fuzz-TARGET FILE`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds="$1"
shift
bin=.build-fuzz/release
failed=()

# The dictionary of each target: JSON and StoreValue tokens for what reads JSON, the key-path syntax, the protocol.
dictionary() {
    case "$1" in
        keypath) echo fixtures/fuzz/keypath.dict ;;
        request) echo fixtures/fuzz/request.dict ;;
        *) echo fixtures/fuzz/json.dict ;;
    esac
}

for target in "$@"; do
    corpus=.build-fuzz/corpus/${target}
    artifacts=.build-fuzz/artifacts/${target}
    log=.build-fuzz/logs/${target}.log
    mkdir -p "${corpus}" "${artifacts}" .build-fuzz/logs
    # The seeds the corpus does not hold yet (it keeps what earlier runs added).
    for seed in fixtures/fuzz/"${target}"/*; do
        [ -e "${corpus}/${seed##*/}" ] || cp "${seed}" "${corpus}/"
    done
    before=$(find "${artifacts}" -type f | wc -l)
    # Swift's own crash backtracer reads raw stack memory, which AddressSanitizer reports as a second error: off.
    # -timeout: one input taking 10 s is a finding; -rss_limit_mb: so is 2 GiB of memory.
    status=0
    SWIFT_BACKTRACE=enable=no "${bin}/fuzz-${target}" \
        -max_total_time="${seconds}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="$(dictionary "${target}")" -artifact_prefix="${artifacts}/" "${corpus}" > "${log}" 2>&1 || status=$?
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "${log}" | tail -1 || true)
    execs=$(grep -E '^stat::average_exec_per_sec' "${log}" | awk '{print $2}' || true)
    printf 'fuzz-%-10s %s  %s exec/s\n' "${target}" "${done_line:-(no DONE line)}" "${execs:-?}"
    after=$(find "${artifacts}" -type f | wc -l)
    if [ "${status}" -ne 0 ] || [ "${after}" -gt "${before}" ]; then
        echo "fuzz-${target}: FAILED (exit ${status}); libFuzzer's output: ${log}"
        grep -E 'fuzz property broken|ERROR: (Address|Leak)Sanitizer|ERROR: libFuzzer' "${log}" | head -5 || true
        grep -E 'Test unit written to' "${log}" | sed 's/^/    /' || true
        failed+=("${target}")
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}; replay an input with .build-fuzz/release/fuzz-TARGET FILE"
    exit 1
fi
echo "fuzz: no crash, leak, timeout or out-of-memory in $# target(s), ${seconds} s each"
