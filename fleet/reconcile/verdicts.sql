-- Calls per verdict, worst first (the order `replay reconcile` lists them in).
SELECT verdict, COUNT(*) AS calls
FROM reconciled
GROUP BY verdict
ORDER BY CASE verdict WHEN 'elsewhere' THEN 1 WHEN 'lost' THEN 2 WHEN 'duplicate' THEN 3 WHEN 'unconfirmed' THEN 4
                      WHEN 'late' THEN 5 WHEN 'unjournaled' THEN 6 ELSE 7 END
