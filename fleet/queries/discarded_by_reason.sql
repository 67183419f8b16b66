-- Completions discarded, by reason (purged_by_logout, purged_by_switch, undelivered_at_switch,
-- gate_full, queue_full, ...) and call.
SELECT outcome_reason AS reason, call_name, COUNT(*) AS calls
FROM fleet
WHERE kind = 'callResolved' AND outcome_status = 'discarded'
GROUP BY outcome_reason, call_name
ORDER BY reason, call_name
