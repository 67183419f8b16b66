-- One row per call the journals put on the wire, and per receipt of a journal's stream that
-- no call explains, with its verdict: the rules of docs/RECONCILE.md, section 3, as
-- `replay reconcile` applies them. fleet/run.py makes this the view `reconciled`; the other
-- queries of this folder count it.
--
-- It reads two views run.py defines (the one thing the engines spell differently, exploding an
-- array and reading a time, is done there):
--   call_rows: one row per wire call id a delivery row names (taskQueued and eventBatched put
--              calls on a task; taskCompleted and eventsExpired end them), its `time` as text
--              and as a TIMESTAMP (`recorded_at`);
--   receipts:  the receipt logs' lines, `received_at` a TIMESTAMP, `stream` the journal id the
--              idempotency key names (upper case, as the export's journal_id).
-- Journals with a gap or an erasure are not judged here: `replay reconcile` names their holes
-- and leaves out what falls in them; rows cannot tell what a hole hid.
WITH queued AS (
    -- A call queued again (the same decision made again after a relaunch, the same id) is one
    -- call: its last queuing names its task and project, its first its time.
    SELECT journal_id, sdk_version, wire_call_id, call_id, task_id, row_project AS project, task_region, task_endpoint,
           ROW_NUMBER() OVER (PARTITION BY journal_id, wire_call_id ORDER BY seq DESC) AS latest
    FROM call_rows
    WHERE kind IN ('taskQueued', 'eventBatched')
), calls AS (
    SELECT journal_id, sdk_version, wire_call_id, call_id, task_id, project, task_region, task_endpoint
    FROM queued WHERE latest = 1
), ended AS (
    -- How the journal says each call ended: its task's completion (every call the task still
    -- carried), or the expiry of its event; the last one stands. A bulk answer that refused
    -- the call's event (its transportCompleted names the call) stands over the delivered
    -- task's completion after it: the call failed alone, as the SDK resolved it.
    SELECT journal_id, wire_call_id, time AS outcome_at, recorded_at AS outcome_time,
           CASE WHEN kind = 'eventsExpired' THEN 'discarded' ELSE outcome_status END AS outcome_status,
           CASE WHEN kind = 'eventsExpired' THEN 'expired' ELSE outcome_reason END AS outcome_reason,
           ROW_NUMBER() OVER (PARTITION BY journal_id, wire_call_id
                              ORDER BY CASE WHEN kind = 'transportCompleted' THEN 1 ELSE 0 END DESC, seq DESC) AS latest
    FROM call_rows
    WHERE kind IN ('transportCompleted', 'taskCompleted', 'eventsExpired')
), judged AS (
    SELECT c.journal_id, c.sdk_version, c.wire_call_id, c.call_id, c.task_id, c.project, c.task_region, c.task_endpoint,
           e.outcome_status, e.outcome_reason, e.outcome_at,
           COUNT(r.call_id) AS receipts,
           -- Any receipt by another project, whatever it answered: misrouting.
           SUM(CASE WHEN r.project <> c.project THEN 1 ELSE 0 END) AS elsewhere,
           -- Receipts answered 2xx: evidence the project has the call.
           SUM(CASE WHEN r.status BETWEEN 200 AND 299 THEN 1 ELSE 0 END) AS held,
           -- ... and those it stored (a re-send it deduplicated is marked `duplicate`).
           SUM(CASE WHEN r.status BETWEEN 200 AND 299 AND NOT r.duplicate THEN 1 ELSE 0 END) AS stored,
           SUM(CASE WHEN r.status BETWEEN 200 AND 299 AND r.received_at > e.outcome_time THEN 1 ELSE 0 END) AS after_outcome
    FROM calls c
    LEFT JOIN ended e ON e.journal_id = c.journal_id AND e.wire_call_id = c.wire_call_id AND e.latest = 1
    LEFT JOIN receipts r ON r.call_id = c.wire_call_id
    GROUP BY c.journal_id, c.sdk_version, c.wire_call_id, c.call_id, c.task_id, c.project, c.task_region, c.task_endpoint,
             e.outcome_status, e.outcome_reason, e.outcome_at
), journals AS (
    SELECT DISTINCT journal_id, sdk_version FROM fleet
)
SELECT CASE
           WHEN elsewhere > 0 THEN 'elsewhere'
           WHEN held = 0 AND outcome_status = 'delivered' THEN 'lost'
           WHEN held = 0 THEN 'agreed'
           WHEN stored > 1 THEN 'duplicate'
           WHEN after_outcome > 0 THEN 'late'
           WHEN outcome_status = 'delivered' THEN 'agreed'
           ELSE 'unconfirmed'
       END AS verdict,
       journal_id, sdk_version, wire_call_id, call_id, task_id, project, task_region AS region, task_endpoint AS endpoint,
       COALESCE(outcome_status, 'pending') AS outcome_status, outcome_reason, outcome_at, receipts
FROM judged
UNION ALL
-- Receipts whose idempotency key names a journal given, with no call of it: each one row.
SELECT 'unjournaled' AS verdict, j.journal_id, j.sdk_version, r.call_id AS wire_call_id, NULL AS call_id, NULL AS task_id,
       r.project, r.region, r.endpoint, 'none' AS outcome_status, NULL AS outcome_reason, NULL AS outcome_at, 1 AS receipts
FROM receipts r
JOIN journals j ON j.journal_id = r.stream
LEFT JOIN calls c ON c.wire_call_id = r.call_id
WHERE c.wire_call_id IS NULL
