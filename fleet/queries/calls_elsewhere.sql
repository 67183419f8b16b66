-- Calls that took effect on a project other than the one live when they were made, by call
-- and why (the last gate decision: `replayed` is a call held during a switch and replayed on
-- the project it landed on; `none` a call the gate never saw). Control calls (initialize,
-- switchProject) are left out: moving projects is what they are for.
WITH received AS (
    SELECT journal_id, call_id, call_name, live_project
    FROM fleet WHERE kind = 'callReceived'
), took_effect AS (
    SELECT journal_id, call_id, row_project AS project
    FROM fleet
    WHERE kind = 'callResolved' AND outcome_status IN ('delivered', 'applied') AND row_project IS NOT NULL
    UNION ALL
    -- A delivered bulk's calls resolve in one callsResolved row (format 1.2), which names
    -- their task: the task's taskQueued and eventBatched rows name each call, and a disable
    -- coalesced into a pending one is named by its disableCoalesced row.
    -- But not every call a task carries is one its callsResolved resolves: it lists only the
    -- calls still pending. An event held for an unknown user (unknownUserEventHeld) resolves
    -- its call as applied at once, in a callResolved of its own; when the user becomes known
    -- the released event is queued linked to that call (its taskQueued or eventBatched row
    -- names it) and later calls may join that bulk, delivered in one callsResolved. Taken from
    -- both rows, such a call was counted twice (fleet seeds 422 and 872 at 10 steps: tracks
    -- replayed after a switch were held, a replayed setUserId released them into a bulk the
    -- next replayed tracks joined: 7 calls counted twice). A call resolves once (replay
    -- check's resolved-once), so one with a callResolved row of its own is left out here.
    SELECT b.journal_id, c.call_id, b.row_project AS project
    FROM fleet b
    JOIN fleet c ON c.journal_id = b.journal_id AND c.task_id = b.task_id
                AND c.kind IN ('taskQueued', 'eventBatched', 'disableCoalesced') AND c.call_id IS NOT NULL
    WHERE b.kind = 'callsResolved' AND b.outcome_status IN ('delivered', 'applied') AND b.row_project IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM fleet own
                      WHERE own.kind = 'callResolved' AND own.journal_id = c.journal_id AND own.call_id = c.call_id)
), decisions AS (
    SELECT journal_id, call_id, gate_decision,
           ROW_NUMBER() OVER (PARTITION BY journal_id, call_id ORDER BY seq DESC) AS latest
    -- gateDecided rows, and eventBatched rows that carry the gate's decision (format 1.3).
    FROM fleet WHERE gate_decision IS NOT NULL
)
SELECT r.call_name, COALESCE(d.gate_decision, 'none') AS why, COUNT(*) AS calls
FROM received r
JOIN took_effect t ON t.journal_id = r.journal_id AND t.call_id = r.call_id
LEFT JOIN decisions d ON d.journal_id = r.journal_id AND d.call_id = r.call_id AND d.latest = 1
WHERE r.call_name NOT IN ('initialize', 'switchProject') AND r.live_project IS DISTINCT FROM t.project
GROUP BY r.call_name, COALESCE(d.gate_decision, 'none')
ORDER BY r.call_name, why
