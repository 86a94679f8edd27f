"""The compiled (numba) no-limit hold'em simulator: whole cash tables played hand after hand.
"""
