"""Boundary pairs, one module per rule family: for each rule, the case where it decides and the nearest where it does not."""
