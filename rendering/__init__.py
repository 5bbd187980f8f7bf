"""Board images for nardy: pure functions from engine values to encoded images (floor 2; imports nardy and Pillow).

Placeholder docstring; see README.
"""

from rendering.board import render_board, render_board_image
from rendering.dice import render_dice

__all__ = ["render_board", "render_board_image", "render_dice"]
