"""(being written)"""

from flask import Blueprint

bp = Blueprint("decks", __name__)
