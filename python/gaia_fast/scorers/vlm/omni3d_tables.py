"""Omni3DBench's fixed tables, read by the scorer and by its pure-Python twin alike
(they are the benchmark's definition, not logic either side could get wrong)."""

#: The reference's MRA thresholds, in its order (the summation order matters).
THRESHOLDS = (0.5, 0.45, 0.40, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05)

#: The report's columns, in the reference's order.
REPORT_COLUMNS = (
    "Yes/No Accuracy",
    "Multiple Choice Accuracy",
    "Numeric (count) Accuracy",
    "Numeric (other) Mean Relative Accuracy",
)
