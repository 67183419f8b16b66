"""The NDJSON columns the fleet queries read (docs/EXPORT.md publishes every field).

Both engines are given this schema explicitly: DuckDB's inference drops keys first seen late in a
file and turns sparse fields into JSON, and Spark's samples. Keys a row does not carry read as
NULL; keys not listed here (the nested members whose shape varies by kind) are not read.
"""

# (name, type): types in the SQL both engines accept.
COLUMNS = [
    ("seq", "BIGINT"),
    ("time", "VARCHAR"),
    ("kind", "VARCHAR"),
    ("journal_id", "VARCHAR"),
    ("sdk_version", "VARCHAR"),
    ("platform", "VARCHAR"),
    ("day", "VARCHAR"),
    ("live_project", "VARCHAR"),
    ("live_project_label", "VARCHAR"),
    ("row_project", "VARCHAR"),
    ("row_project_label", "VARCHAR"),
    ("call_id", "VARCHAR"),
    ("call_name", "VARCHAR"),
    ("switch_id", "BIGINT"),
    ("task_id", "BIGINT"),
    ("gate_decision", "VARCHAR"),
    ("outcome_status", "VARCHAR"),
    ("outcome_reason", "VARCHAR"),
    ("durability_purpose", "VARCHAR"),
    ("step", "VARCHAR"),
    ("result", "VARCHAR"),
    ("reasons", "VARCHAR[]"),
    ("task_region", "VARCHAR"),
    ("task_endpoint", "VARCHAR"),
    ("wire_call_ids", "VARCHAR[]"),
]

# A receipt log's members (docs/RECONCILE.md, section 2): what fleet/reconcile/ reads of each line.
RECEIPT_COLUMNS = [
    ("project", "VARCHAR"),
    ("region", "VARCHAR"),
    ("endpoint", "VARCHAR"),
    ("call_id", "VARCHAR"),
    ("idempotency_key", "VARCHAR"),
    ("user", "VARCHAR"),
    ("received_at", "VARCHAR"),
    ("status", "BIGINT"),
    ("duplicate", "BOOLEAN"),
]

# The Parquet partitions: one directory per day, then per SDK version.
PARTITIONS = ["day", "sdk_version"]


def duckdb_columns(columns=COLUMNS):
    """The `columns={...}` argument of DuckDB's read_json."""
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns) + "}"


def spark_ddl(columns=COLUMNS):
    """The schema as a Spark DDL string (`spark.read.schema(...)`)."""
    def spark_type(kind):
        if kind.endswith("[]"):
            return f"ARRAY<{spark_type(kind[:-2])}>"
        return {"VARCHAR": "STRING", "BIGINT": "BIGINT", "BOOLEAN": "BOOLEAN"}[kind]
    return ", ".join(f"`{name}` {spark_type(kind)}" for name, kind in columns)
