#!/usr/bin/env bash
# The action's run step: runs `mailclean $MAILCLEAN_ARGS`, then turns what happened into step outputs
# (GITHUB_OUTPUT, from the run's --summary-json, which it adds to a `clean` that has none) and annotations: each
# `warning:` line of mailclean's stderr a ::warning::, a --fail-when trip (exit 5), an `error:` line or rows left
# unchecked an ::error::. Exits with mailclean's code.
set -uo pipefail

# The arguments are split as xargs splits its input, never evaluated: blanks and newlines separate words, '...' and
# "..." quote, a backslash escapes the next character, and $VAR, $(...), backticks, ; and globs are text. A workflow
# that builds `args` from a pull request's title or a branch name must not run what they hold.
words="$(mktemp)"
if ! printf '%s' "$MAILCLEAN_ARGS" | xargs printf '%s\0' >"$words" 2>"$words.err"; then
  echo "::error title=mailclean::args cannot be split into words ($(tr -d '\n' <"$words.err")): close each quote"
  rm -f "$words" "$words.err"
  echo "exit-code=2" >>"$GITHUB_OUTPUT"
  exit 2
fi
args=()
while IFS= read -r -d '' word; do args+=("$word"); done <"$words"
rm -f "$words" "$words.err"
set -- "${args[@]}"
summary=""
for ((i = 1; i <= $#; i++)); do
  case "${!i}" in
  --summary-json=*) summary="${!i#--summary-json=}" ;;
  --summary-json) j=$((i + 1)) && summary="${!j:-}" ;;
  esac
done
if [ "${1:-}" = clean ] && [ -z "$summary" ]; then
  summary="$RUNNER_TEMP/mailclean-summary-$RANDOM$RANDOM.json"
  set -- "$@" --summary-json "$summary"
fi

stderr="$(mktemp)"
# stderr through tee (shown as it comes, and kept to read back), stdout untouched; the pipeline ends with tee.
{ "$MAILCLEAN" "$@" 2>&1 1>&3 3>&- | tee "$stderr" >&2; } 3>&1
code=${PIPESTATUS[0]}

# Annotation text: GitHub's escapes for %, CR and LF.
escape() { sed -e 's/%/%25/g' -e 's/\r/%0D/g' | sed -e ':a;N;$!ba;s/\n/%0A/g'; }
while IFS= read -r line; do
  case "$line" in
  "warning: "*) echo "::warning title=mailclean::$(printf '%s' "${line#warning: }" | escape)" ;;
  "error: "*) echo "::error title=mailclean::$(printf '%s' "${line#error: }" | escape)" ;;
  esac
done <"$stderr"
rm -f "$stderr"

echo "exit-code=$code" >>"$GITHUB_OUTPUT"
if [ -n "$summary" ] && [ -s "$summary" ]; then
  jq -r --arg path "$summary" '
    "rows=\(.rows)",
    (["valid", "risky", "invalid", "unknown", "unchecked"][] as $s | "\($s)=\(.statuses[$s] // 0)"),
    "spent=\(.spent)",
    "allowance-left=\(.allowanceLeft // "")",
    "output=\([.outputs[] | select(.role == "output") | .path][0] // "")",
    "rejects=\([.outputs[] | select(.role == "rejects") | .path][0] // "")",
    "summary-json=\($path)",
    "failed-when=\(.failedWhen // [] | join("; "))"
  ' "$summary" >>"$GITHUB_OUTPUT"
  if [ "$code" -eq 5 ]; then
    jq -r '.failedWhen // [] | .[]' "$summary" | while IFS= read -r condition; do
      echo "::error title=mailclean --fail-when::$(printf '%s' "$condition" | escape)"
    done
  elif [ "$code" -eq 3 ]; then
    message="$(jq -r '"\(.unchecked.rows) rows unchecked: \(.unchecked.message // .unchecked.reason)"' "$summary")"
    echo "::error title=mailclean::$(printf '%s' "$message" | escape)"
  fi
fi
exit "$code"
