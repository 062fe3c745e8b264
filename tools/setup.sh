#!/usr/bin/env bash
# Checks (and, as root, installs) what `make` needs. Usage: tools/setup.sh build|dist|test|hosts
#   build: emcc (Debian's emscripten) with wasm-opt (binaryen), zopfli, node 20+
#   dist:  also node_modules (esbuild)
#   test:  also clang with its sanitizer and libFuzzer runtimes, node_modules, and the three
#          browser engines the tests drive, all Debian's: chromium, firefox-esr, and WebKitGTK's
#          WebKitWebDriver (webkit2gtk-driver) with its MiniBrowser under Xvfb (xvfb)
#   hosts: test's, and the site generators of docs/embedding.md's recipes (make test-hosts)
#   coverage: clang and llvm-profdata and llvm-cov (Debian's llvm-14) for make coverage
set -eu
need=${1:-build}
apt_pkgs=()
command -v node >/dev/null 2>&1 || apt_pkgs+=(nodejs npm)
command -v emcc >/dev/null 2>&1 || apt_pkgs+=(emscripten)
command -v wasm-opt >/dev/null 2>&1 || apt_pkgs+=(binaryen)
command -v zopfli >/dev/null 2>&1 || apt_pkgs+=(zopfli)
if [ "$need" = hosts ]; then
  for tool in mkdocs:mkdocs sphinx-build:python3-sphinx hugo:hugo jupyter-nbconvert:jupyter-nbconvert; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || apt_pkgs+=("${tool#*:}")
  done
  [ -d /usr/share/mkdocs/themes/material ] || [ -d /usr/lib/python3/dist-packages/material ] || apt_pkgs+=(mkdocs-material)
  /usr/bin/python3 -c 'import ipykernel' >/dev/null 2>&1 || apt_pkgs+=(python3-ipykernel)
  need=test
fi
if [ "$need" = coverage ]; then
  # clang's source-based coverage tools, from the same LLVM as Debian's clang (14)
  { command -v llvm-profdata-14 || command -v llvm-profdata; } >/dev/null 2>&1 || apt_pkgs+=(llvm-14)
  { command -v llvm-cov-14 || command -v llvm-cov; } >/dev/null 2>&1 || apt_pkgs+=(llvm-14)
fi
if [ "$need" = test ] || [ "$need" = coverage ]; then
  command -v clang >/dev/null 2>&1 || apt_pkgs+=(clang)
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
    || [ "$(uname -m)" != x86_64 ] || apt_pkgs+=(libclang-rt-14-dev)
fi
if [ "$need" = test ]; then
  [ -x /usr/bin/chromium ] || apt_pkgs+=(chromium)
  [ -x /usr/bin/firefox-esr ] || apt_pkgs+=(firefox-esr)
  [ -x /usr/bin/WebKitWebDriver ] || apt_pkgs+=(webkit2gtk-driver)
  [ -x /usr/bin/Xvfb ] || apt_pkgs+=(xvfb)
fi
if [ ${#apt_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${apt_pkgs[*]} with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${apt_pkgs[@]}" >/dev/null
  else
    echo "setup: missing ${apt_pkgs[*]}. Run this once, then make again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${apt_pkgs[*]}" >&2
    exit 1
  fi
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "setup: node $(node --version) is too old; Attention Explorer needs Node.js 20 or later" >&2
  exit 1
fi
# node_modules matches package-lock.json when npm ci last ran from this very lock file (the
# stamp); otherwise (missing, or the lock file changed since) npm ci runs again. Browsers come
# from Debian, never from npm.
if [ "$need" != build ] && ! cmp -s package-lock.json node_modules/.setup-lock-stamp; then
  echo "setup: installing the pinned devDependencies with npm ci (browsers are Debian's)" >&2
  npm ci --no-audit --no-fund >/dev/null
  cp package-lock.json node_modules/.setup-lock-stamp
fi
