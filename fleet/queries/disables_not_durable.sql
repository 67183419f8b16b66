-- Outgoing disables not durable within their bound, by SDK version and why: a switch's
-- disable durability wait (durabilityRequested, purpose teardown_disable) whose `disable push`
-- step did not finish clean (its bound passed first, or the journal failed to make it durable),
-- or never finished in the journal.
WITH waits AS (
    SELECT journal_id, sdk_version, switch_id
    FROM fleet WHERE kind = 'durabilityRequested' AND durability_purpose = 'teardown_disable'
), steps AS (
    SELECT journal_id, switch_id, outcome_status, outcome_reason
    FROM fleet WHERE kind = 'teardownStepFinished' AND step = 'disable push'
)
SELECT w.sdk_version, COALESCE(s.outcome_reason, 'never finished in the journal') AS why, COUNT(*) AS disables
FROM waits w
LEFT JOIN steps s ON s.journal_id = w.journal_id AND s.switch_id = w.switch_id
WHERE s.outcome_status IS NULL OR s.outcome_status <> 'clean'
GROUP BY w.sdk_version, COALESCE(s.outcome_reason, 'never finished in the journal')
ORDER BY w.sdk_version, why
