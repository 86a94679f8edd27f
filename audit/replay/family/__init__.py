"""Replay of the stud and draw families: the hooks hand.py calls (hooks), and the checks of stud
dealing, antes, draw rules, exposed cards, lowball miscalls and jacks or better.
"""
