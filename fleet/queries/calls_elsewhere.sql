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
    -- their task: the task's taskQueued and eventBatched rows name each call.
    SELECT b.journal_id, c.call_id, b.row_project AS project
    FROM fleet b
    JOIN fleet c ON c.journal_id = b.journal_id AND c.task_id = b.task_id
                AND c.kind IN ('taskQueued', 'eventBatched') AND c.call_id IS NOT NULL
    WHERE b.kind = 'callsResolved' AND b.outcome_status IN ('delivered', 'applied') AND b.row_project IS NOT NULL
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
