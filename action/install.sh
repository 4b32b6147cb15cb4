#!/usr/bin/env bash
# The action's first step: installs mailclean for this job under $RUNNER_TEMP, never onto the caller's PATH and
# never touching the caller's Node. A release on a Linux x64 runner: its single executable (no Node needed),
# checked against the release's SHA256SUMS. Otherwise (another runner, or `package:`, a tarball packed earlier in
# the run): the npm tarball, installed with the runner's own Node, which must be 22.13 or newer.
# Outputs: bin (the command), cache-key and restore-key (empty when the data directory is not to be cached).
set -euo pipefail

fail() {
  echo "::error title=mailclean::$1"
  exit 1
}

version="$INPUT_VERSION"
if [ -z "$version" ] && [[ "$ACTION_REF" =~ ^v[0-9] ]]; then version="$ACTION_REF"; fi
if [ -z "$version" ] && [ -z "$INPUT_PACKAGE" ]; then
  fail "no release to install: use the action at a release tag (uses: mailclean/mailclean@v0.1.0) or set version: (it is used at '${ACTION_REF:-?}')"
fi
dest="$RUNNER_TEMP/mailclean-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
mkdir -p "$dest"

if [ -z "$INPUT_PACKAGE" ] && [ "$RUNNER_OS" = Linux ] && [ "$RUNNER_ARCH" = X64 ]; then
  base="${INPUT_RELEASE_URL%/}/$version"
  (
    cd "$dest"
    curl -fsSL --retry 3 -o mailclean-linux-x64 "$base/mailclean-linux-x64" || exit 1
    curl -fsSL --retry 3 -o SHA256SUMS "$base/SHA256SUMS" || exit 1
    sha256sum --check --ignore-missing --quiet SHA256SUMS || exit 1
  ) || fail "could not download and check mailclean $version for Linux x64 from $base"
  chmod +x "$dest/mailclean-linux-x64"
  bin="$dest/mailclean-linux-x64"
else
  package="${INPUT_PACKAGE:-${INPUT_RELEASE_URL%/}/$version/mailclean-${version#v}.tgz}"
  node_version="$(node -p 'process.versions.node' 2>/dev/null || true)"
  IFS=. read -r major minor _ <<<"${node_version:-0.0.0}"
  if [ "$major" -lt 22 ] || { [ "$major" -eq 22 ] && [ "$minor" -lt 13 ]; }; then
    fail "mailclean's npm package needs Node 22.13 or newer on the runner (found ${node_version:-none}); add actions/setup-node before this step, or use a Linux x64 runner, where the action installs a single executable"
  fi
  npm install -g --prefix "$dest" --no-audit --no-fund --loglevel error "$package" >&2 ||
    fail "could not install mailclean from $package"
  bin="$dest/bin/mailclean"
fi
echo "Installed $("$bin" --version | head -n 1) at $bin" >&2
echo "bin=$bin" >>"$GITHUB_OUTPUT"

if [ "$INPUT_CACHE" = true ] && [ "$FROM_FORK" != true ]; then
  # Unique to this use of the action (a job, a matrix leg, a second use in one job); the prefix finds the newest
  # entry any earlier run saved under the same name.
  prefix="mailclean-${INPUT_CACHE_NAME}-"
  echo "cache-key=${prefix}${GITHUB_RUN_ID}-${GITHUB_RUN_ATTEMPT}-${GITHUB_JOB}-${JOB_INDEX:-0}-${dest##*-}" >>"$GITHUB_OUTPUT"
  echo "restore-key=$prefix" >>"$GITHUB_OUTPUT"
elif [ "$FROM_FORK" = true ]; then
  echo "A pull request from a fork: the data directory is neither restored nor saved (it holds addresses)." >&2
fi
