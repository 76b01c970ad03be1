#!/bin/sh
# Makes the base image the Containerfile starts FROM (debian:trixie-slim) on a machine that cannot pull images:
# debootstrap a minimal Debian 13 (trixie) root from Debian's own package mirror and `podman import` it under the
# same name, so `FROM debian:trixie-slim` finds it locally (a short name resolves to localhost/ first).
# Re-runnable: it does nothing when the image is already there (FORCE=1 makes it again).
#
#   sh scripts/container/make-base-image.sh            # as root; installs debootstrap and podman when missing
#   MIRROR=http://deb.debian.org/debian IMAGE=localhost/debian:trixie-slim FORCE=1 sh scripts/container/make-base-image.sh
#
# Where images can be pulled this script is not needed: podman or docker pulls debian:trixie-slim itself.
set -eu

IMAGE="${IMAGE:-localhost/debian:trixie-slim}"
SUITE="${SUITE:-trixie}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
NICE="nice -n 10"

if [ "$(id -u)" != 0 ]; then
  echo "make-base-image: run as root (debootstrap needs it)" >&2
  exit 1
fi

missing=""
command -v debootstrap >/dev/null 2>&1 || missing="$missing debootstrap"
command -v podman >/dev/null 2>&1 || missing="$missing podman"
if [ -n "$missing" ]; then
  echo "make-base-image: installing$missing with apt-get"
  $NICE apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $NICE apt-get install -y -qq $missing
fi

if [ "${FORCE:-}" != 1 ] && podman image exists "$IMAGE"; then
  echo "make-base-image: $IMAGE is already there (FORCE=1 makes it again)"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/var/tmp}/studybuddy-base.XXXXXX")"
trap 'rm -rf "$work"' EXIT INT TERM
root="$work/root"
started="$(date +%s)"

echo "make-base-image: debootstrap --variant=minbase $SUITE into $root (a few minutes)"
$NICE debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  echo "make-base-image: debootstrap failed (log above)" >&2
  exit 1
}

# The sources the official image has (deb822), and what makes it slim: no package lists or downloaded .debs, no
# documentation or translations kept by later installs (as debian:*-slim's dpkg excludes).
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
DPKG
cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"* "$root/usr/share/doc" "$root/usr/share/man" \
  "$root/usr/share/info" "$root/usr/share/locale" "$root/var/log/"*.log "$root/var/log/apt/"* "$root/dev/"*
mkdir -p "$root/usr/share/doc" "$root/usr/share/man"
: >"$root/etc/machine-id"
printf '%s\n' debian >"$root/etc/hostname"

echo "make-base-image: podman import as $IMAGE"
tar --numeric-owner -C "$root" -c . |
  $NICE podman import --quiet --change 'CMD ["bash"]' --change 'ENV LANG=C.UTF-8' - "$IMAGE" >/dev/null
size="$(podman image inspect --format '{{.Size}}' "$IMAGE")"
echo "make-base-image: $IMAGE made in $(($(date +%s) - started)) s ($((size / 1000000)) MB)"
