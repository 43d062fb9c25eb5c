#!/usr/bin/env bash
# Builds what a release ships and installs each piece where nothing of the build can help it.
#
#   table-VERSION-TRIPLE.tar.gz   the `table` binary with README.md, CHANGELOG.md and the licences
#   slidetable-VERSION-*.whl      the Python package: one abi3 wheel (CPython 3.11 and later)
#   slidetable-VERSION.tar.gz     its sdist (the extension's sources and the library's, via maturin)
#   slidetable-VERSION.crate      the library's crate as `cargo publish` would upload it, built
#                                 from the package by `cargo publish --dry-run`
#   slidetable-cli-VERSION.crate  the `table` binary's crate (cli/), likewise
#
# Installed and run:
#   - the tarball unpacked in an empty temporary folder: `table --version`, `table build` of the
#     8-puzzle, `table query` of a board 31 moves from the goal;
#   - the wheel in a fresh venv with no cargo on PATH (a user without Rust): `import slidetable`,
#     its `__version__`, the 8-puzzle's table built and that board's distance;
#   - the binary's .crate unpacked and `cargo install`ed with a fresh CARGO_HOME (no registry
#     cache: the dependencies come from crates.io as a user's would) and a fresh target folder,
#     the library taken from its unpacked .crate (it is not on crates.io yet), then the installed
#     `table` checked as the tarball's is.
# Every version printed must equal Cargo.toml's, which must equal cli/Cargo.toml's (and the
# library version it requires), python/pyproject.toml's and python/Cargo.toml's. Prints a summary (artifact, size, check) and exits non-zero on any failure.
#
# Usage: scripts/release.sh [--check] [--allow-dirty] [--out DIR]
#   --check        only the cheap checks, for CI (seconds): the versions agree, the licences are
#                  there, the crate's file list carries what the build needs and nothing it should
#                  not, and the packaged (unverified) .crate is under 10 MB
#   --allow-dirty  build from a tree with uncommitted changes (the artifacts are then no commit's)
#   --out DIR      where the artifacts go (default: target/release-artifacts)
#
# The full run takes tens of minutes on 2 cores (three optimised builds of the binary's
# dependencies: the tarball's, the wheel's, the installed crate's); it is not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never

check_only=0
allow_dirty=0
out=target/release-artifacts
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check_only=1; shift ;;
    --allow-dirty) allow_dirty=1; shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: scripts/release.sh [--check] [--allow-dirty] [--out DIR]" >&2; exit 2 ;;
  esac
done

max_crate_bytes=$((10 * 1000 * 1000))
summary=()
step=""
start=$SECONDS
fail() { echo "release: FAILED: $*" >&2; exit 1; }
trap 'status=$?; if [ $status -ne 0 ] && [ -n "$step" ]; then echo "release: FAILED during: $step" >&2; fi' EXIT
begin() { step="$1"; echo "== $1 ($(date +%T))"; }
size_of() { stat -c %s "$1"; }
human() { numfmt --to=iec-i --suffix=B "$1"; }

# --- the version, once --------------------------------------------------------------------------
begin "versions agree"
read -r version py_version ext_version cli_version cli_needs < <(python3 - <<'PY'
import tomllib
def version(path, *keys):
    with open(path, "rb") as f:
        d = tomllib.load(f)
    for k in keys:
        d = d[k]
    return d
print(version("Cargo.toml", "package", "version"),
      version("python/pyproject.toml", "project", "version"),
      version("python/Cargo.toml", "package", "version"),
      version("cli/Cargo.toml", "package", "version"),
      version("cli/Cargo.toml", "dependencies", "slidetable", "version"))
PY
)
[ "$py_version" = "$version" ] || fail "python/pyproject.toml says version $py_version, Cargo.toml says $version: make them agree"
[ "$ext_version" = "$version" ] || fail "python/Cargo.toml says version $ext_version, Cargo.toml says $version: make them agree"
[ "$cli_version" = "$version" ] || fail "cli/Cargo.toml says version $cli_version, Cargo.toml says $version: make them agree"
[ "$cli_needs" = "$version" ] || fail "cli/Cargo.toml requires slidetable $cli_needs, Cargo.toml says $version: make them agree"
echo "version $version (Cargo.toml, cli/Cargo.toml, python/pyproject.toml, python/Cargo.toml)"

begin "licences"
for f in LICENSE-MIT LICENSE-APACHE; do
  [ -s "$f" ] || fail "$f is missing at the top of the repository (Cargo.toml's licence is MIT OR Apache-2.0)"
  cmp -s "$f" "python/$f" || fail "python/$f differs from $f (the wheel and sdist carry python/'s copy)"
  cmp -s "$f" "cli/$f" || fail "cli/$f differs from $f (the binary's crate carries cli/'s copy)"
done

if [ "$allow_dirty" = 0 ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  fail "the work tree has uncommitted changes: commit them, or pass --allow-dirty for a rehearsal"
fi
dirty_flag=()
if [ "$allow_dirty" = 1 ]; then dirty_flag=(--allow-dirty); fi

# --- the crate's file list ----------------------------------------------------------------------
begin "the crates' file lists"
list=$(cargo package --list --locked --quiet -p slidetable "${dirty_flag[@]}")
for need in Cargo.toml Cargo.lock README.md LICENSE-MIT LICENSE-APACHE src/lib.rs \
            data/korf100.tsv data/korf24.tsv benches/table.rs; do
  grep -qx "$need" <<<"$list" || fail "the library's crate does not carry $need (see include in Cargo.toml)"
done
# run logs, tables, checkpoints, node's packages, build output, the Python package, the binary's
# crate, the tests (a package of their own, never published)
bad=$(grep -E '(^|/)node_modules/|^target/|^tests/|^python/|^fuzz/|^cli/|\.(table|fsm|jsonl|checkpoint|tmp)$|^data/korf24-results' <<<"$list" || true)
[ -z "$bad" ] || fail "the library's crate would carry files it must not: $(tr '\n' ' ' <<<"$bad")"
echo "slidetable: $(wc -l <<<"$list") files"
list=$(cargo package --list --locked --quiet -p slidetable-cli "${dirty_flag[@]}")
for need in Cargo.toml Cargo.lock README.md LICENSE-MIT LICENSE-APACHE src/main.rs \
            src/cli/presets.tsv src/cli/serve/page/index.html benches/play.rs; do
  grep -qx "$need" <<<"$list" || fail "the binary's crate does not carry $need (see include in cli/Cargo.toml)"
done
bad=$(grep -E '(^|/)node_modules/|^target/|^tests/|\.(table|fsm|jsonl|checkpoint|tmp)$' <<<"$list" || true)
[ -z "$bad" ] || fail "the binary's crate would carry files it must not: $(tr '\n' ' ' <<<"$bad")"
echo "slidetable-cli: $(wc -l <<<"$list") files"

if [ "$check_only" = 1 ]; then
  begin "the crates' sizes"
  cargo package --workspace --locked --no-verify --quiet "${dirty_flag[@]}"
  for name in slidetable slidetable-cli; do
    crate="target/package/$name-$version.crate"
    bytes=$(size_of "$crate")
    [ "$bytes" -le "$max_crate_bytes" ] || fail "$crate is $(human "$bytes"), over the 10 MB crates.io takes"
    echo "$crate: $(human "$bytes") ($bytes bytes)"
  done
  # `cargo publish --dry-run` builds the packages from scratch in the dev profile (minutes: CI
  # builds nothing else in it); a check of every target of the unpacked packages, in the target
  # folder `cargo clippy` already filled, finds the same missing files in seconds (the binary's
  # crate takes the library from its unpacked crate, as it is not on crates.io yet)
  begin "the packaged crates' targets check"
  rm -rf target/package/check
  mkdir -p target/package/check
  for name in slidetable slidetable-cli; do
    tar -C target/package/check -xzf "target/package/$name-$version.crate"
  done
  patch_lib=(--config "patch.crates-io.slidetable.path=\"$root/target/package/check/slidetable-$version\"")
  cargo check --locked --quiet --all-targets --target-dir target \
    --manifest-path "target/package/check/slidetable-$version/Cargo.toml"
  cargo check --quiet --all-targets --target-dir target "${patch_lib[@]}" \
    --manifest-path "target/package/check/slidetable-cli-$version/Cargo.toml"
  bash -n "$0"
  step=""
  echo "release --check: OK ($((SECONDS - start)) s)"
  exit 0
fi


triple=$(rustc -vV | sed -n 's/^host: //p')
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# everything installed lives outside the repository: its .cargo/config.toml and its sources must
# not help an install
scratch=$(mktemp -d "${TMPDIR:-/tmp}/slidetable-release.XXXXXX")
trap 'status=$?; if [ $status -ne 0 ] && [ -n "$step" ]; then echo "release: FAILED during: $step" >&2; fi; rm -rf "$scratch"' EXIT
no_cargo_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e '\.cargo' -e rustup | paste -sd: -)

# The installed `table` prints the version, builds the 8-puzzle in an empty folder and finds the
# board of data/puzzle3x3-31.txt 31 moves from the goal.
check_table() {
  local bin="$1" dir
  local printed
  printed=$("$bin" --version)
  [ "$printed" = "table $version" ] || fail "$bin --version printed '$printed', not 'table $version'"
  dir=$(mktemp -d "$scratch/run.XXXXXX")
  (cd "$dir" && "$bin" build --quiet >/dev/null) || fail "$bin build of the 8-puzzle failed"
  [ -s "$dir/eight.table" ] || fail "$bin build wrote no eight.table"
  local distance
  distance=$(cd "$dir" && "$bin" query --json 8 6 7 2 5 4 3 0 1 |
             python3 -c 'import json, sys; print(json.load(sys.stdin)["distance"])')
  [ "$distance" = 31 ] || fail "$bin query of 8 6 7 2 5 4 3 0 1 gave distance $distance, not 31"
  echo "$printed; built eight.table and queried a board 31 moves away"
}

# --- the binary, as a tarball -------------------------------------------------------------------
begin "the table binary"
t=$SECONDS
cargo build --release --locked --bin table
name="table-$version-$triple"
mkdir -p "$scratch/$name"
cp target/release/table README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$scratch/$name/"
strip "$scratch/$name/table" 2>/dev/null || true
tarball="$out/$name.tar.gz"
tar -C "$scratch" --owner=0 --group=0 --numeric-owner --sort=name -czf "$tarball" "$name"
rm -rf "${scratch:?}/$name"
echo "built in $((SECONDS - t)) s"

begin "the tarball installed"
mkdir "$scratch/tarball"
tar -C "$scratch/tarball" -xzf "$tarball"
for f in table README.md LICENSE-MIT LICENSE-APACHE; do
  [ -e "$scratch/tarball/$name/$f" ] || fail "$tarball has no $name/$f"
done
check_table "$scratch/tarball/$name/table"
summary+=("$(basename "$tarball")|$(size_of "$tarball")|unpacked; table --version, build, query OK")

# --- the Python package: wheel and sdist --------------------------------------------------------
begin "the wheel and the sdist"
t=$SECONDS
python3 -m venv "$scratch/build-venv"
"$scratch/build-venv/bin/pip" install --quiet --upgrade pip
"$scratch/build-venv/bin/pip" install --quiet "maturin>=1.9.3,<2"
"$scratch/build-venv/bin/maturin" build --release --locked --manifest-path python/Cargo.toml --out "$out"
"$scratch/build-venv/bin/maturin" sdist --manifest-path python/Cargo.toml --out "$out"
wheel=$(ls "$out"/slidetable-"$version"-*abi3*.whl)
sdist="$out/slidetable-$version.tar.gz"
[ -f "$sdist" ] || fail "maturin sdist made no $sdist"
echo "built in $((SECONDS - t)) s"

begin "the wheel and the sdist carry the licences and the sources"
wheel_list=$(python3 -m zipfile -l "$wheel")
for f in LICENSE-MIT LICENSE-APACHE; do
  grep -q "dist-info/licenses/$f" <<<"$wheel_list" || fail "$wheel has no .dist-info/licenses/$f"
done
sdist_list=$(tar -tzf "$sdist")
for f in LICENSE-MIT LICENSE-APACHE pyproject.toml data/korf100.tsv src/lib.rs; do
  grep -q "/$f\$" <<<"$sdist_list" || fail "$sdist has no $f"
done

begin "the wheel installed in a fresh venv without cargo"
python3 -m venv "$scratch/venv"
PATH="$no_cargo_path" "$scratch/venv/bin/pip" install --quiet "$wheel"
printed=$(cd "$scratch" && PATH="$no_cargo_path" "$scratch/venv/bin/python" - "$version" <<'PY'
import shutil, sys
assert shutil.which("cargo") is None, "cargo is on PATH"
import slidetable as st
assert "site-packages" in st.__file__, f"imported from {st.__file__}, not the installed wheel"
assert st.__version__ == sys.argv[1], f"slidetable.__version__ is {st.__version__}, not {sys.argv[1]}"
table = st.Table.build(st.Puzzle(3, 3))
d = table.distance([8, 6, 7, 2, 5, 4, 3, 0, 1])
assert d == 31, f"distance {d}, not 31"
print(f"import slidetable {st.__version__}; built the 3x3 table; distance 31")
PY
) || fail "the installed wheel failed its check"
echo "$printed"
summary+=("$(basename "$wheel")|$(size_of "$wheel")|fresh venv, no cargo: $printed")
summary+=("$(basename "$sdist")|$(size_of "$sdist")|carries the licences and the library's sources (not built)")

# --- the crate ----------------------------------------------------------------------------------
begin "the crates (cargo publish --dry-run: packaged, then built from the packages)"
t=$SECONDS
cargo publish --workspace --dry-run --locked "${dirty_flag[@]}"
# a dry run leaves its .crate files in a scratch folder of target/package; `cargo package` writes
# the same files where the artifacts are expected, in seconds (the build above verified them)
cargo package --workspace --locked --no-verify --quiet "${dirty_flag[@]}"
for name in slidetable slidetable-cli; do
  crate="target/package/$name-$version.crate"
  bytes=$(size_of "$crate")
  [ "$bytes" -le "$max_crate_bytes" ] || fail "$crate is $(human "$bytes"), over the 10 MB crates.io takes"
  cp "$crate" "$out/"
done
echo "packaged and verified in $((SECONDS - t)) s"

begin "the binary's crate installed with a fresh CARGO_HOME and target"
t=$SECONDS
mkdir "$scratch/crate"
for name in slidetable slidetable-cli; do
  tar -C "$scratch/crate" -xzf "$out/$name-$version.crate"
done
CARGO_HOME="$scratch/cargo-home" cargo install --quiet \
  --config "patch.crates-io.slidetable.path=\"$scratch/crate/slidetable-$version\"" \
  --path "$scratch/crate/slidetable-cli-$version" --root "$scratch/root" --target-dir "$scratch/target"
check_table "$scratch/root/bin/table"
echo "installed in $((SECONDS - t)) s"
for name in slidetable slidetable-cli; do
  summary+=("$name-$version.crate|$(size_of "$out/$name-$version.crate")|packaged and built by cargo publish --dry-run")
done
summary+=("slidetable-cli-$version.crate|$(size_of "$out/slidetable-cli-$version.crate")|cargo install from the package, fresh CARGO_HOME: table --version, build, query OK")

# --- summary ------------------------------------------------------------------------------------
step=""
echo
echo "release $version for $triple: every artifact built and installed ($((SECONDS - start)) s)"
for line in "${summary[@]}"; do
  IFS='|' read -r artifact size check <<<"$line"
  printf '  %-56s %8s  %s\n' "$artifact" "$(human "$size")" "$check"
done
echo "in $out"
