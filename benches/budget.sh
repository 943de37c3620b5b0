#!/usr/bin/env bash
# Instruction budgets: instructions per input byte for each aoi command on
# fixed generated inputs, counted by callgrind (deterministic, so a
# regression shows even on a noisy machine), checked against
# benches/budget.txt. Exit 1 when a command goes over its budget.
#
#   benches/budget.sh              # measure and check (about 2 minutes)
#   UPDATE=1 benches/budget.sh     # rewrite budget.txt: measured + 10%, rounded up
#   SIZE=5M benches/budget.sh      # a bigger input (default 2M)
#
# The figure is the marginal cost: (Ir on SIZE - Ir on a 1K input of the
# same mix) / (byte difference), so start-up does not dilute it. A change
# that needs a higher budget says why in its commit and raises the line in
# budget.txt; one that lowers the cost lowers the line.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

SIZE=${SIZE:-2M}
UPDATE=${UPDATE:-0}
BUDGET=benches/budget.txt

die() {
    echo "budget.sh: $*" >&2
    exit 1
}

command -v valgrind >/dev/null || die "needs valgrind (apt-get install valgrind)"

echo "Building (cargo build --release, generator)..." >&2
cargo build --release >&2 || die "cargo build --release failed"
AOI=$(cargo build --release --message-format=json 2>/dev/null |
    grep '"name":"aoi"' | grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4)
GEN=$(cargo bench --bench generate --no-run --message-format=json 2>/dev/null |
    grep '"name":"generate"' | grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4)
[[ -x $AOI && -x $GEN ]] || die "cannot find the aoi binary or the generator"

DATA=$(mktemp -d "${TMPDIR:-/tmp}/aoi-budget.XXXXXX")
trap 'rm -rf "$DATA"' EXIT

# command (arguments before FILE) | mix
ROWS=(
    "check -q --no-relay|domain"
    "check -q --no-relay|control"
    "check -q --no-relay|unicode"
    "check -q --no-relay|long"
    "check -q|domain"
    "strip -q --no-fail|domain"
    "strip -q --no-fail|control"
    "summary -q|domain"
    "summary -q|control"
    "errors -q --no-fail --count|domain"
    "errors -q --no-fail --count|control"
    "errors -q --no-fail --log --count|messy"
    "errors -q --no-fail --log --output jsonl|messy"
    "merge-report -q --no-fail --log --format jsonl|messy"
    "filter -q --continue-on-error .|domain"
    "filter --raw .title|domain"
    "filter -q --continue-on-error {id,title}|domain"
    "filter --raw {id,title}|domain"
    "filter -q --continue-on-error select((.rank//0)%2==0)|domain"
    "filter --raw select((.rank//0)%2==0)|domain"
    "filter --raw .|domain"
)

ir_of() {
    # Instructions executed by `aoi ARGS FILE` (stdout discarded; its exit
    # status does not matter here, the total does).
    local file=$1
    shift
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$AOI" "$@" "$file" 2>&1 >/dev/null || true; } |
        awk '/Collected :/ { print $NF }'
}

declare -A big=() tiny=()
for mix in domain control unicode long messy; do
    "$GEN" --out "$DATA/$mix.jsonl" --size "$SIZE" --mix "$mix" --seed 1 2>/dev/null
    "$GEN" --out "$DATA/$mix-1k.jsonl" --size 1K --mix "$mix" --seed 1 2>/dev/null
done

declare -A budget=()
if [[ -f $BUDGET ]]; then
    while IFS='|' read -r cmd mix max; do
        [[ -z $cmd || $cmd == \#* ]] && continue
        budget["$cmd|$mix"]=$max
    done <"$BUDGET"
fi

echo "## Instructions per byte (callgrind, marginal, $SIZE inputs, seed 1)"
echo
echo "| command | mix | Ir/byte | budget | |"
echo "|---|---|---:|---:|---|"
over=0
updated=()
for row in "${ROWS[@]}"; do
    cmd=${row%|*}
    mix=${row#*|}
    read -r -a args <<<"$cmd"
    f=$DATA/$mix.jsonl
    t=$DATA/$mix-1k.jsonl
    ir=$(ir_of "$f" "${args[@]}")
    ir0=$(ir_of "$t" "${args[@]}")
    [[ -n $ir && -n $ir0 ]] || die "callgrind gave no total for aoi $cmd"
    bytes=$(stat -c %s "$f")
    bytes0=$(stat -c %s "$t")
    per=$(awk -v a="$ir" -v b="$ir0" -v x="$bytes" -v y="$bytes0" 'BEGIN { printf "%.2f", (a - b) / (x - y) }')
    max=${budget["$cmd|$mix"]-}
    status=
    if [[ -z $max ]]; then
        status="no budget"
    elif awk -v p="$per" -v m="$max" 'BEGIN { exit !(p > m) }'; then
        status="**over**"
        over=1
    else
        status=ok
    fi
    echo "| \`aoi $cmd FILE\` | $mix | $per | ${max:--} | $status |"
    updated+=("$cmd|$mix|$(awk -v p="$per" 'BEGIN { v = p * 1.10; printf "%.1f", int(v * 10 + 0.999) / 10 }')")
done
echo

if [[ $UPDATE == 1 ]]; then
    {
        echo "# Instruction budgets: instructions per input byte (marginal), checked by"
        echo "# benches/budget.sh with callgrind on generated $SIZE inputs (seed 1)."
        echo "# Format: command|mix|max. Raising a line needs a reason in the commit."
        printf '%s\n' "${updated[@]}"
    } >"$BUDGET"
    echo "budget.sh: wrote $BUDGET (measured + 10%)" >&2
    exit 0
fi
if ((over)); then
    echo "budget.sh: over budget; make it cheaper, or raise the line in $BUDGET and say why" >&2
    exit 1
fi
