"""(being written)"""

from flask import Blueprint

bp = Blueprint("story", __name__)
