-- Requests each project received (tasks delivered to it: for calls and the SDK's own, such as
-- a switch's disableDevice), with its label where the journals gave one.
SELECT row_project AS project, MAX(row_project_label) AS label, COUNT(*) AS requests
FROM fleet
WHERE kind = 'taskCompleted' AND outcome_status = 'delivered'
GROUP BY row_project
ORDER BY project
