"""Explanation for a person: the model's own trace of a decision, rule by rule, and the rule texts of adr/ behind each id."""
