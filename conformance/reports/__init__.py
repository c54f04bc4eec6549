"""What a campaign's reader sees: a failure on the terminal, and the reports rendered from ``results.jsonl``."""
