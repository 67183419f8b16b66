-- Switch outcomes by SDK version, result and reason: one row per (version, result, reason),
-- counting the switches that landed so (a switch with two reasons counts under each; a clean
-- switch has the reason NULL). Fingerprints inside reasons read <project>.
SELECT sdk_version, result, reason, COUNT(*) AS switches
FROM switch_reasons
GROUP BY sdk_version, result, reason
ORDER BY sdk_version, result, reason NULLS FIRST
