#!/usr/bin/env bash
# Hushdrop on Node 24, the current LTS, beside the Node 20 these machines have: the extension's build, the
# unit and server suites (the server on disk, its command line, the payment CLI), run by `.ci/run` after
# `npm test`. Node 24 comes from the npm registry's `node` package (it fetches the binary as another npm
# package), at the exact version below, into a cache folder outside the project.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=24.21.0
prefix="${HUSHDROP_NODE24:-${XDG_CACHE_HOME:-$HOME/.cache}/hushdrop/node-$VERSION}"
bin="$prefix/node_modules/node/bin"
if [ ! -x "$bin/node" ]; then
  echo "installing Node $VERSION (npm package node@$VERSION) into $prefix"
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$prefix" "node@$VERSION"
fi
# Everything below, npm and npx included, runs on that Node.
export PATH="$bin:$PATH"
echo "Node $(node --version): build, unit and server suites"
npm run -s build
npm run -s build:firefox
npx vitest run --project unit
