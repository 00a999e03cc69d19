"""The grade pipeline: one archive as a plan (read, score, sinks, summary), many archives
side by side, and the summary tables."""
