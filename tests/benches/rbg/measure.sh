#!/bin/bash
# The figures of RBG (Regular Boardgames: rbg2cpp's compiled C++ reasoners) that
# docs/performance.md sets beside the generated engines: for each game, rbg2cpp's own
# release build of its reasoner and random-playout driver, and
#   * instructions per random playout, with callgrind: (Ir(N) - Ir(M)) / (N - M), so
#     start-up cancels out (the driver's seed is fixed: the first M games of both runs
#     are the same games);
#   * plies per playout over the same games, from the driver's count of states;
#   * perft from the start (rbg2cpp's test/perft.cpp).
# Needs git, g++, make, valgrind, python3 and apt-get (to download Boost's headers, which
# the reasoners include; nothing is installed). Everything lives under $ROOT (default
# target/rbg); one thread, niced; about 5 minutes.
#
# Usage: tests/benches/rbg/measure.sh [game ...]   (default: every game of GAMES_TABLE)
#   SKIP_SETUP=1   reuse the sources and the rbg2cpp already built under $ROOT
#   RBG_GIT=DIR    take the repositories from DIR/<owner>+<name>/repo (bare git
#                  directories) instead of cloning them from GitHub
set -euo pipefail

ROOT=${ROOT:-target/rbg}
ROOT=$(mkdir -p "$ROOT" && cd "$ROOT" && pwd)
RBG2CPP_COMMIT=fd93c438ca6a4f6de88e041c78b4053af0bf3236     # uicus/rbg2cpp HEAD
RBGPARSER_COMMIT=d2ba9e8dc0790cac4605ec739327a94874e6d8ce   # uicus/rbgParser = rbg2cpp's submodule pin (= HEAD)
RBGGAMES_COMMIT=3ae4fb75c2cc94085f742587815d345405da9d7a    # marekesz/rbgGames HEAD
BOOST_DEB=libboost1.81-dev                                  # header-only use: boost/container/{static,small}_vector.hpp

# rbg2cpp Makefile RELEASE_FLAGS (RANDGEN=0 -> mt19937 + Lemire), plus the local boost include dir.
CXX=${CXX:-g++}
RELEASE_FLAGS="-Wall -Wextra -Wpedantic -std=c++17 -Ofast -march=native -flto -s -DNDEBUG -DRBG_RANDOM_GENERATOR=0"
EXTRA_FLAGS=${EXTRA_FLAGS--mno-avx512f}   # valgrind 3.19 cannot decode AVX-512, which -march=native enables on this host
BOOST_INC="$ROOT/boost/usr/include"

# game  rbg-file  N  M  perft-depths(comma list, empty = none)
GAMES_TABLE="
tictactoe    ticTacToe        40000 10000 1,2,3,4,5,6,7,8,9
connect4     connect4         40000 10000 1,2,3,4,5,6,7,8
breakthrough breakthrough     20000 5000  1,2,3,4,5
hex11        hex              20000 5000  1,2,3
reversi      reversi          20000 5000  1,2,3,4,5,6,7,8,9
chess        chess            1000  250   1,2,3,4,5
draughts     englishDraughts  20000 5000  1,2,3,4,5,6,7,8,9,10
amazons      amazons          1000  250   1,2
"

SRC="$ROOT/rbg2cpp"
GAMESDIR="$ROOT/rbgGames/games"
OUT="$ROOT/results"
RUN="nice -n 10"

# The commit of a repository as a tree under $2: from $RBG_GIT when given, else cloned.
extract() {  # owner+name commit destination
  local repo=$1 commit=$2 dest=$3 git_dir
  mkdir -p "$dest"
  if [ -n "${RBG_GIT:-}" ]; then
    git_dir="$RBG_GIT/$repo/repo"
  else
    git_dir="$ROOT/git/$repo"
    [ -d "$git_dir" ] || git clone --quiet --bare "https://github.com/${repo/+//}" "$git_dir"
  fi
  git --git-dir="$git_dir" archive "$commit" | tar -x -C "$dest"
}

setup() {
  mkdir -p "$ROOT"
  [ -d "$SRC/src" ] || extract uicus+rbg2cpp "$RBG2CPP_COMMIT" "$SRC"
  [ -f "$SRC/rbgParser/Makefile" ] || extract uicus+rbgParser "$RBGPARSER_COMMIT" "$SRC/rbgParser"
  [ -d "$ROOT/rbgGames/games" ] || extract marekesz+rbgGames "$RBGGAMES_COMMIT" "$ROOT/rbgGames"
  if [ ! -f "$BOOST_INC/boost/container/static_vector.hpp" ]; then
    mkdir -p "$ROOT/debs"
    (cd "$ROOT/debs" && apt-get download "$BOOST_DEB")
    dpkg -x "$ROOT"/debs/${BOOST_DEB}_*.deb "$ROOT/boost"
  fi
  if [ ! -x "$SRC/bin/rbg2cpp" ]; then
    (cd "$SRC" && $RUN make -j1 rbg2cpp > "$ROOT/build_rbg2cpp.log" 2>&1)
  fi
}

ir_total() {  # PROGRAM TOTALS from a callgrind file
  callgrind_annotate "$1" 2>/dev/null > "$1.annot" || true; awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1; exit}' "$1.annot"
}
states_of() { awk '/^number of states:/ {print $4; exit}' "$1"; }
moves_of()  { awk '/^number of moves:/ {print $4; exit}' "$1"; }
mono_of()   { awk '/^Monotonic classes:/ {print $3; exit}' "$1"; }

measure_game() {
  local name=$1 file=$2 N=$3 M=$4 depths=$5
  local d="$OUT/$name"; mkdir -p "$d"
  echo "=== $name ($file.rbg) N=$N M=$M"
  # 1. RBG -> C++
  (cd "$d" && "$SRC/bin/rbg2cpp" -o reasoner "$GAMESDIR/$file.rbg" > rbg2cpp.log 2>&1)
  # 2. compile exactly as rbg2cpp's Makefile (simulate_% / perft_% targets) does
  (cd "$d" && cp "$SRC/test/rbg_random_generator.hpp" . &&
    $RUN $CXX $RELEASE_FLAGS $EXTRA_FLAGS -I. -I"$BOOST_INC" -c -o reasoner.o reasoner.cpp &&
    $RUN $CXX $RELEASE_FLAGS $EXTRA_FLAGS -I. -I"$BOOST_INC" -o simulation reasoner.o "$SRC/test/simulation.cpp" &&
    $RUN $CXX $RELEASE_FLAGS $EXTRA_FLAGS -I. -I"$BOOST_INC" -o perft reasoner.o "$SRC/test/perft.cpp") > "$d/compile.log" 2>&1
  # 3. native run (timing only, informative)
  $RUN "$d/simulation" "$N" > "$d/native_N.txt"
  # 4. callgrind N and M playouts (same seed -> first M playouts identical)
  for k in $N $M; do
    $RUN valgrind --tool=callgrind --callgrind-out-file="$d/cg.$k.out" "$d/simulation" "$k" > "$d/cg.$k.txt" 2> "$d/cg.$k.err"
  done
  local irN irM sN sM mN mM mono
  irN=$(ir_total "$d/cg.$N.out"); irM=$(ir_total "$d/cg.$M.out")
  sN=$(states_of "$d/cg.$N.txt"); sM=$(states_of "$d/cg.$M.txt")
  mN=$(moves_of "$d/cg.$N.txt"); mM=$(moves_of "$d/cg.$M.txt")
  mono=$(mono_of "$d/cg.$N.txt")
  # 5. perft
  local perfts=""
  if [ -n "$depths" ]; then
    for dep in ${depths//,/ }; do
      $RUN timeout 600 "$d/perft" "$dep" > "$d/perft.$dep.txt" || true
      perfts="$perfts $(awk '/^perft:/ {print $2}' "$d/perft.$dep.txt")"
    done
  fi
  python3 - "$name" "$file" "$N" "$M" "$irN" "$irM" "$sN" "$sM" "$mN" "$mM" "$mono" "$perfts" >> "$OUT/summary.tsv" <<'EOF'
import sys
name, file, N, M, irN, irM, sN, sM, mN, mM, mono, perfts = sys.argv[1:]
N, M, irN, irM, sN, sM, mN, mM = map(int, (N, M, irN, irM, sN, sM, mN, mM))
g = N - M
ipp = (irN - irM) / g
ply = (sN - sM) / g
print("\t".join([name, file + ".rbg", str(g), f"{ipp:.0f}", f"{ply:.2f}", f"{ipp/ply:.0f}",
                 (f"{(mN-mM)/(sN-sM):.2f}" if mono == "0" else "n/a(monotonic)"), mono, str(irN), str(irM), perfts.strip().replace(' ', ',')]))
EOF
  tail -1 "$OUT/summary.tsv"
}

[ "${SKIP_SETUP:-0}" = 1 ] || setup
mkdir -p "$OUT"
[ -f "$OUT/summary.tsv" ] || printf "game\trbg_file\tgames_counted\tIr_per_playout\tplies_per_game\tIr_per_ply\tavg_branching\tmonotonic_classes\tIr_N\tIr_M\tperft_1..\n" > "$OUT/summary.tsv"
want=" $* "
while read -r name file N M depths; do
  [ -z "$name" ] && continue
  if [ $# -gt 0 ] && [[ "$want" != *" $name "* ]]; then continue; fi
  measure_game "$name" "$file" "$N" "$M" "${depths:-}"
done <<< "$GAMES_TABLE"
