#!/usr/bin/env bash
# Installs the packages of scripts/test_packages.txt that are not installed yet, with apt-get.
# Run as root. Used by .ci/run, the CI workflow and `deno task test` (scripts/test_task.ts).
set -euo pipefail

list="$(dirname "$0")/test_packages.txt"
mapfile -t packages < <(sed -e 's/#.*//' "$list" | awk 'NF { print $1 }')

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

echo "::: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
