"""Live tables in the replay: the physical layer's vocabulary (words), the binding action
(rulings) and the tracker gathering declarations and chips (tracker).
"""
