#!/bin/sh
# Installs, with pip from PyPI, the Python packages fleet/run.py needs for an engine, when they
# are missing: duckdb (the default, embedded engine) or pyspark (plus Java 17, from apt, when no
# java is on PATH), and orjson (fleet/check.py's faster JSON reader). A system Python that
# refuses user installs (PEP 668) gets them with --break-system-packages.
# Usage: scripts/install-fleet-deps.sh duckdb|spark
set -eu
engine=${1:-duckdb}
case "$engine" in
    duckdb) modules="duckdb, orjson"; packages="duckdb orjson" ;;
    spark) modules="pyspark, orjson"; packages="pyspark orjson" ;;
    *) echo "install-fleet-deps: unknown engine '$engine' (duckdb or spark)" >&2; exit 2 ;;
esac
python=${PYTHON:-python3}
if ! "$python" -c "import $modules" 2>/dev/null; then
    echo "install-fleet-deps: installing $packages with pip"
    "$python" -m pip install --quiet $packages 2>/dev/null \
        || "$python" -m pip install --quiet --break-system-packages $packages
fi
if [ "$engine" = spark ] && ! command -v java >/dev/null 2>&1; then
    echo "install-fleet-deps: installing Java 17 for Spark"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -q && $sudo apt-get install -y -q openjdk-17-jre-headless
fi
