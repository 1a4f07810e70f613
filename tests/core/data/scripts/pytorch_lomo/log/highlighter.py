# Source: https://github.com/OpenLMLab/LOMO/blob/45d4bac16c642f101ed00db7244cacf28e5dde15/lomo/log/highlighter.py (copied unchanged below this line)
from rich.highlighter import Highlighter

__all__ = []

class ColorHighlighter(Highlighter):
    def __init__(self, color='black'):
        self.color = color

    def highlight(self, text):
        text.stylize(self.color)