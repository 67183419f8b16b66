#!/usr/bin/env python3
"""Fleet SQL over `replay export --redact --format ndjson` output, on DuckDB or Spark.

    fleet/run.py [--engine duckdb|spark] [--json] [--parquet DIR] [--rebuild] [--received LOGS]... NDJSON_DIR

Converts the NDJSON files of NDJSON_DIR (`*.ndjson`, one per journal or one for all) to Parquet
partitioned by day and SDK version, once (into --parquet, default NDJSON_DIR.parquet; --rebuild
converts again), then runs every query of fleet/queries/ unchanged on the chosen engine and
prints the results (--json: one JSON object, query name -> rows, for machines).

The explicit schema is fleet/schema.py (docs/EXPORT.md). The queries see two tables: `fleet`
(every row) and `switch_reasons` (one row per switch landing and reason; the one place the
engines' SQL differs, exploding an array, is here and not in the queries).

With --received (receipt logs, docs/RECONCILE.md: a file, a glob, or a directory searched for
`*.ndjson` below it; repeatable), it also reconciles the calls with what the projects received:
fleet/reconcile/reconciled.sql becomes the view `reconciled` (one verdict per call, as `replay
reconcile` gives it) and the other queries of fleet/reconcile/ count it (per verdict, project,
SDK version and cause). Two more views feed it: `call_rows` (one row per wire call id a
delivery row names) and `receipts` (the logs' lines, times as timestamps).
"""
import argparse
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema  # noqa: E402

QUERIES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "queries")
RECONCILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reconcile")
# The view the reconciliation queries count; its file is not a query of its own.
RECONCILED = "reconciled.sql"
MARKER = "_FLEET_PARQUET_DONE"


def query_files(folder=QUERIES):
    return sorted(name for name in os.listdir(folder) if name.endswith(".sql") and name != RECONCILED)


def read_query(name, folder=QUERIES):
    with open(os.path.join(folder, name)) as handle:
        return handle.read()


# The columns of `call_rows`, after the exploded wire call id.
CALL_ROW_COLUMNS = ("journal_id, sdk_version, seq, kind, call_id, task_id, row_project, task_region, task_endpoint, "
                    "outcome_status, outcome_reason")
CALL_ROW_KINDS = "('taskQueued', 'eventBatched', 'transportCompleted', 'taskCompleted', 'eventsExpired')"
RECEIPT_VIEW_COLUMNS = "project, region, endpoint, call_id, idempotency_key, status, COALESCE(duplicate, false) AS duplicate"


def receipt_paths(paths):
    """Each --received argument as (path, is_directory), checked to exist (a glob is taken as is)."""
    named = []
    for path in paths:
        if any(mark in path for mark in "*?["):
            named.append((path, False))
        elif os.path.isdir(path):
            named.append((os.path.abspath(path), True))
        elif os.path.isfile(path):
            named.append((os.path.abspath(path), False))
        else:
            raise SystemExit(f"fleet/run.py: --received {path}: no such file or directory")
    return named


def excluding(journal_ids):
    """The WHERE clause that leaves the rows of the journals of the view `set_aside` out of the
    `fleet` view when `journal_ids` (which that view holds) is not empty: a join on a small
    table, where a list of ids compared row by row made every query several times slower."""
    return " WHERE journal_id NOT IN (SELECT journal_id FROM set_aside)" if journal_ids else ""


def set_aside_values(journal_ids):
    """The journal ids as a VALUES list both engines read."""
    for journal_id in journal_ids:
        if not re.fullmatch(r"[0-9A-Fa-f-]+", journal_id):
            raise SystemExit(f"fleet/run.py: {journal_id!r} is not a journal id")
    return "VALUES " + ", ".join(f"('{journal_id}')" for journal_id in sorted(journal_ids))


class DuckDBEngine:
    """Embedded DuckDB: reads the NDJSON with explicit columns, writes hive-partitioned Parquet."""

    def __init__(self):
        import duckdb
        self.duckdb = duckdb
        self.connection = duckdb.connect()

    def convert(self, ndjson, parquet):
        source = os.path.join(ndjson, "*.ndjson")
        self.connection.execute(
            f"COPY (SELECT * FROM read_json(?, format = 'newline_delimited', columns = {schema.duckdb_columns()})) "
            f"TO '{parquet}' (FORMAT PARQUET, PARTITION_BY ({', '.join(schema.PARTITIONS)}), OVERWRITE_OR_IGNORE)",
            [source])

    def register(self, parquet, exclude=()):
        types = ", ".join(f"'{name}': 'VARCHAR'" for name in schema.PARTITIONS)
        if exclude:
            self.connection.execute(f"CREATE OR REPLACE TABLE set_aside AS SELECT * FROM ({set_aside_values(exclude)}) AS ids(journal_id)")
        self.connection.execute(
            f"CREATE OR REPLACE VIEW fleet AS SELECT * FROM read_parquet('{parquet}/**/*.parquet', "
            f"hive_partitioning = true, hive_types = {{{types}}}){excluding(exclude)}")
        self.connection.execute(
            "CREATE OR REPLACE VIEW switch_reasons AS "
            "SELECT journal_id, sdk_version, switch_id, result, "
            "regexp_replace(reason, '[0-9a-f]{16}', '<project>', 'g') AS reason "
            "FROM (SELECT *, unnest(CASE WHEN len(reasons) = 0 THEN [NULL] ELSE reasons END) AS reason "
            "      FROM fleet WHERE kind = 'switchLanded')")
        self.connection.execute(
            f"CREATE OR REPLACE VIEW call_rows AS SELECT {CALL_ROW_COLUMNS}, time, CAST(time AS TIMESTAMPTZ) AS recorded_at, "
            f"unnest(wire_call_ids) AS wire_call_id FROM fleet WHERE kind IN {CALL_ROW_KINDS}")

    def register_reconcile(self, receipts):
        sources = [os.path.join(path, "**", "*.ndjson") if directory else path for path, directory in receipts]
        self.connection.execute(
            f"CREATE OR REPLACE TABLE receipts AS SELECT {RECEIPT_VIEW_COLUMNS}, "
            "CAST(received_at AS TIMESTAMPTZ) AS received_at, upper(substr(idempotency_key, 1, 36)) AS stream "
            f"FROM read_json(?, format = 'newline_delimited', columns = {schema.duckdb_columns(schema.RECEIPT_COLUMNS)})",
            [sources])

    def create_view(self, name, sql):
        self.connection.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")

    def rows(self, sql):
        cursor = self.connection.execute(sql)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def count(self):
        return self.rows("SELECT COUNT(*) AS n FROM fleet")[0]["n"]

    def close(self):
        self.connection.close()


class SparkEngine:
    """Spark SQL on a local session (local[*]); the same code runs on a cluster given a master."""

    def __init__(self):
        from pyspark.sql import SparkSession
        master = os.environ.get("FLEET_SPARK_MASTER", "local[*]")
        self.spark = (SparkSession.builder.appName("engagement-fleet").master(master)
                      .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
                      .config("spark.sql.session.timeZone", "UTC")
                      .config("spark.ui.enabled", "false")
                      .config("spark.ui.showConsoleProgress", "false")
                      .config("spark.driver.memory", os.environ.get("FLEET_SPARK_DRIVER_MEMORY", "2g"))
                      .getOrCreate())
        self.spark.sparkContext.setLogLevel("ERROR")

    def convert(self, ndjson, parquet):
        # The directory, not a glob: a glob of thousands of files makes Spark list them in a job
        # of its own; small files are packed into partitions (spark.sql.files.openCostInBytes).
        frame = self.spark.read.schema(schema.spark_ddl()).option("pathGlobFilter", "*.ndjson").json(ndjson)
        frame.write.mode("overwrite").partitionBy(*schema.PARTITIONS).parquet(parquet)

    def register(self, parquet, exclude=()):
        if exclude:
            self.spark.sql(f"CREATE OR REPLACE TEMP VIEW set_aside AS SELECT * FROM ({set_aside_values(exclude)}) AS ids(journal_id)")
        self.spark.read.parquet(parquet).createOrReplaceTempView("fleet_rows")
        self.spark.sql(f"CREATE OR REPLACE TEMP VIEW fleet AS SELECT * FROM fleet_rows{excluding(exclude)}")
        self.spark.sql(
            "CREATE OR REPLACE TEMP VIEW switch_reasons AS "
            "SELECT journal_id, sdk_version, switch_id, result, "
            "regexp_replace(reason, '[0-9a-f]{16}', '<project>') AS reason "
            "FROM (SELECT *, explode_outer(reasons) AS reason FROM fleet WHERE kind = 'switchLanded')")
        self.spark.sql(
            f"CREATE OR REPLACE TEMP VIEW call_rows AS SELECT {CALL_ROW_COLUMNS}, time, CAST(time AS TIMESTAMP) AS recorded_at, "
            f"explode(wire_call_ids) AS wire_call_id FROM fleet WHERE kind IN {CALL_ROW_KINDS}")

    def register_reconcile(self, receipts):
        reader = self.spark.read.schema(schema.spark_ddl(schema.RECEIPT_COLUMNS))
        frames = []
        for path, directory in receipts:
            if directory:
                frames.append(reader.option("recursiveFileLookup", "true").option("pathGlobFilter", "*.ndjson").json(path))
            else:
                frames.append(reader.json(path))
        frame = frames[0]
        for other in frames[1:]:
            frame = frame.unionByName(other)
        frame.createOrReplaceTempView("receipt_lines")
        self.spark.sql(
            f"CREATE OR REPLACE TEMP VIEW receipts AS SELECT {RECEIPT_VIEW_COLUMNS}, "
            "CAST(received_at AS TIMESTAMP) AS received_at, upper(substr(idempotency_key, 1, 36)) AS stream FROM receipt_lines")

    def create_view(self, name, sql):
        self.spark.sql(f"CREATE OR REPLACE TEMP VIEW {name} AS {sql}")

    def rows(self, sql):
        return [row.asDict() for row in self.spark.sql(sql).collect()]

    def count(self):
        return self.spark.sql("SELECT COUNT(*) AS n FROM fleet").collect()[0]["n"]

    def close(self):
        self.spark.stop()


ENGINES = {"duckdb": DuckDBEngine, "spark": SparkEngine}


def run(engine_name, ndjson, parquet=None, rebuild=False, log=sys.stderr, received=None, calls=False, prepare=None):
    """Converts (once) and runs every query; with `received` (receipt-log paths) the
    reconciliation's too, as `reconcile/NAME`, and with `calls` every row of `reconciled` as
    `reconcile/calls`. `prepare`, when given, is called with the engine once the rows are in
    Parquet, its `fleet` and `call_rows` views over every row (`engine.rows(sql)` queries
    them), and before any
    query is run or the logs are read (the cross-check changes the logs then); it returns the
    journal ids whose rows the `fleet` view then leaves out (journals the cross-check sets
    aside). Returns (results by query name, figures)."""
    ndjson = os.path.abspath(ndjson)
    if not os.path.isdir(ndjson):
        raise SystemExit(f"fleet/run.py: {ndjson}: not a directory of NDJSON files")
    if not any(name.endswith(".ndjson") for name in os.listdir(ndjson)):
        raise SystemExit(f"fleet/run.py: {ndjson}: holds no *.ndjson file (write them with `replay export --redact --format ndjson`)")
    parquet = os.path.abspath(parquet or ndjson.rstrip("/") + ".parquet")
    figures = {"engine": engine_name}
    started = time.monotonic()
    engine = ENGINES[engine_name]()
    figures["start_s"] = round(time.monotonic() - started, 2)
    try:
        if rebuild or not os.path.exists(os.path.join(parquet, MARKER)):
            began = time.monotonic()
            engine.convert(ndjson, parquet)
            open(os.path.join(parquet, MARKER), "w").close()
            figures["convert_s"] = round(time.monotonic() - began, 2)
            print(f"fleet: converted {ndjson} to Parquet in {parquet} ({figures['convert_s']} s)", file=log)
        engine.register(parquet)
        exclude = prepare(engine) if prepare else ()
        if exclude:
            engine.register(parquet, exclude)
        figures["rows"] = engine.count()
        began = time.monotonic()
        results = {name[:-4]: engine.rows(read_query(name)) for name in query_files()}
        figures["queries_s"] = round(time.monotonic() - began, 2)
        if received:
            began = time.monotonic()
            engine.register_reconcile(receipt_paths(received))
            engine.create_view("reconciled", read_query(RECONCILED, RECONCILE))
            for name in query_files(RECONCILE):
                results["reconcile/" + name[:-4]] = engine.rows(read_query(name, RECONCILE))
            if calls:
                results["reconcile/calls"] = engine.rows(
                    "SELECT verdict, journal_id, wire_call_id, project, outcome_status, outcome_at FROM reconciled")
            figures["reconcile_s"] = round(time.monotonic() - began, 2)
    finally:
        engine.close()
    figures["total_s"] = round(time.monotonic() - started, 2)
    return results, figures


def print_table(name, rows, out=sys.stdout):
    print(f"== {name} ({len(rows)} row(s))", file=out)
    if not rows:
        return
    names = list(rows[0].keys())
    cells = [[("NULL" if row[key] is None else str(row[key])) for key in names] for row in rows]
    widths = [max(len(names[index]), *(len(line[index]) for line in cells)) for index in range(len(names))]
    print("  ".join(name.ljust(width) for name, width in zip(names, widths)), file=out)
    for line in cells:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)), file=out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=sorted(ENGINES), default="duckdb")
    parser.add_argument("--json", action="store_true", help="one JSON object: query name -> rows, and the figures")
    parser.add_argument("--parquet", help="where the Parquet goes (default NDJSON_DIR.parquet)")
    parser.add_argument("--rebuild", action="store_true", help="convert to Parquet again")
    parser.add_argument("--received", action="append", metavar="LOGS",
                        help="receipt logs to reconcile the calls with: a file, a glob or a directory of *.ndjson (repeatable)")
    parser.add_argument("ndjson", metavar="NDJSON_DIR")
    arguments = parser.parse_args()
    results, figures = run(arguments.engine, arguments.ndjson, arguments.parquet, arguments.rebuild, received=arguments.received)
    if arguments.json:
        print(json.dumps({"results": results, "figures": figures}, sort_keys=True))
    else:
        for name, rows in results.items():
            print_table(name, rows)
            print()
        print(f"fleet: {figures['rows']} rows on {figures['engine']}; " +
              ", ".join(f"{key} {value}" for key, value in figures.items() if key.endswith("_s")), file=sys.stderr)


if __name__ == "__main__":
    main()
