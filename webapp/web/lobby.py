"""(being written)"""

from flask import Blueprint

bp = Blueprint("lobby", __name__)
