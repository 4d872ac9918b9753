"""(being written)"""

from flask import Blueprint

bp = Blueprint("collection", __name__)
