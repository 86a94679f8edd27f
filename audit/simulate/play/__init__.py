"""Simulated play: the hand engines, agents, tables and the `simulate()` entry that writes a store.
"""
