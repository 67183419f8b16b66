-- Loss, duplication and misrouting per cause, as the journal tells it: the API path the call
-- travelled on (`events/trackBulk` for a batched event) and how the journal says it ended
-- (`delivered`, `failed` or `discarded` with its reason, `pending`; `none` for a receipt no
-- call explains).
SELECT endpoint, outcome_status, outcome_reason,
       COUNT(*) AS calls,
       SUM(CASE WHEN verdict = 'elsewhere' THEN 1 ELSE 0 END) AS elsewhere,
       SUM(CASE WHEN verdict = 'lost' THEN 1 ELSE 0 END) AS lost,
       SUM(CASE WHEN verdict = 'duplicate' THEN 1 ELSE 0 END) AS duplicate,
       SUM(CASE WHEN verdict = 'unconfirmed' THEN 1 ELSE 0 END) AS unconfirmed,
       SUM(CASE WHEN verdict = 'late' THEN 1 ELSE 0 END) AS late,
       SUM(CASE WHEN verdict = 'unjournaled' THEN 1 ELSE 0 END) AS unjournaled,
       SUM(CASE WHEN verdict = 'agreed' THEN 1 ELSE 0 END) AS agreed
FROM reconciled
GROUP BY endpoint, outcome_status, outcome_reason
ORDER BY endpoint, outcome_status, outcome_reason
