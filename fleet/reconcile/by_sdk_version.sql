-- Loss, duplication and misrouting per SDK version (the journal's producer): each verdict's
-- count among its calls.
SELECT sdk_version,
       COUNT(*) AS calls,
       SUM(CASE WHEN verdict = 'elsewhere' THEN 1 ELSE 0 END) AS elsewhere,
       SUM(CASE WHEN verdict = 'lost' THEN 1 ELSE 0 END) AS lost,
       SUM(CASE WHEN verdict = 'duplicate' THEN 1 ELSE 0 END) AS duplicate,
       SUM(CASE WHEN verdict = 'unconfirmed' THEN 1 ELSE 0 END) AS unconfirmed,
       SUM(CASE WHEN verdict = 'late' THEN 1 ELSE 0 END) AS late,
       SUM(CASE WHEN verdict = 'unjournaled' THEN 1 ELSE 0 END) AS unjournaled,
       SUM(CASE WHEN verdict = 'agreed' THEN 1 ELSE 0 END) AS agreed
FROM reconciled
GROUP BY sdk_version
ORDER BY sdk_version
