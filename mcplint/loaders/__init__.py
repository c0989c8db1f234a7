"""Readers that turn input (files, stdin) into the model, reporting bad input as values."""
