#!/usr/bin/env bash
# The patches to grpc-go v1.85.0, kept as one git repository with a branch
# per tree, each branch one commit on the one below it:
#
#   stock      grpc-go v1.85.0 from the module cache
#   patched    stock + grpc-go-v1.85.0.patch
#   control    patched + ab-control-xnet.patch
#   benchmain  stock + ab-benchmain.patch (run.sh applies it last to every
#              A/B tree, so it touches only benchmark/benchmain)
#
#   mkpatches.sh tree DIR   makes the repository in DIR (new), for editing:
#                           commit on patched, then rebase control on it
#                           (git rebase patched control), which carries
#                           ab-control-xnet.patch over the edit
#   mkpatches.sh write DIR  writes the three .patch files from DIR's
#                           branches (git diff, so no go.sum: run.sh makes
#                           it with go mod tidy)
#   mkpatches.sh check      makes the repository from the committed patches
#                           and fails unless writing it back gives the same
#                           bytes: the patches stack, apply exactly and are
#                           what the script writes (run.sh test runs it)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
grpc_version=v1.85.0

die() {
	echo "mkpatches.sh: $*" >&2
	exit 1
}

git_() { git -c user.name=mkpatches -c user.email=mkpatches@invalid -c commit.gpgsign=false "$@"; }

# tree dir patchdir: the repository in dir, from the patches in patchdir.
tree() {
	local dir=$1 pd=$2 src
	[[ ! -e $dir ]] || die "$dir exists"
	src=$(cd "${TMPDIR:-/tmp}" && GOFLAGS=-mod=mod go mod download -json "google.golang.org/grpc@$grpc_version" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[[ -n $src && -d $src ]] || die "go mod download google.golang.org/grpc@$grpc_version gave no directory"
	cp -R "$src" "$dir"
	chmod -R u+w "$dir"
	cd "$dir"
	git_ init -q -b stock
	git_ add -A
	git_ commit -qm "grpc-go $grpc_version"
	step patched stock "$pd/grpc-go-v1.85.0.patch"
	step control patched "$pd/ab-control-xnet.patch"
	step benchmain stock "$pd/ab-benchmain.patch"
	git_ checkout -q patched
}

# step branch base patch: branch = base + patch, applied exactly.
step() {
	git_ checkout -q -b "$1" "$2"
	git_ apply --index "$3" || die "$(basename "$3") does not apply on $2"
	git_ commit -qm "$(basename "$3")"
}

# write dir out: the patches of dir's branches into out.
write() {
	local dir=$1 out=$2
	git -C "$dir" diff stock patched >"$out/grpc-go-v1.85.0.patch"
	git -C "$dir" diff patched control >"$out/ab-control-xnet.patch"
	git -C "$dir" diff stock benchmain >"$out/ab-benchmain.patch"
	if grep -l '^+++ b/go.sum' "$out"/*.patch; then
		die "a patch changes go.sum: leave it to go mod tidy"
	fi
}

case ${1:-} in
tree)
	[[ -n ${2:-} ]] || die "usage: $0 tree DIR"
	tree "$2" "$here"
	;;
write)
	[[ -n ${2:-} ]] || die "usage: $0 write DIR"
	write "$2" "$here"
	;;
check)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/mkpatches.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	(tree "$tmp/g" "$here")
	mkdir "$tmp/out"
	write "$tmp/g" "$tmp/out"
	for p in grpc-go-v1.85.0.patch ab-control-xnet.patch ab-benchmain.patch; do
		cmp -s "$here/$p" "$tmp/out/$p" ||
			die "$p is not what mkpatches.sh writes: make it with mkpatches.sh tree and write"
	done
	echo "mkpatches.sh: the patches are what mkpatches.sh writes"
	;;
*)
	echo "usage: $0 tree DIR | write DIR | check" >&2
	exit 2
	;;
esac
