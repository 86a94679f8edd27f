"""Injectors: labelled violations planted into simulated hands, one registry (base) for every
family's injectors.
"""
