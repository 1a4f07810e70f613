# Source: https://github.com/OpenNMT/OpenNMT-py/blob/97111d97551c24857076a4102eabdb468b35cff4/onmt/translate/__init__.py (copied unchanged below this line)
""" Modules for translation """
from onmt.translate.translator import Translator, GeneratorLM
from onmt.translate.translation import Translation, TranslationBuilder
from onmt.translate.beam_search import BeamSearch, GNMTGlobalScorer
from onmt.translate.beam_search import BeamSearchLM
from onmt.translate.decode_strategy import DecodeStrategy
from onmt.translate.greedy_search import GreedySearch, GreedySearchLM
from onmt.translate.penalties import PenaltyBuilder
from onmt.translate.translation_server import TranslationServer, ServerModelError

__all__ = [
    "Translator",
    "Translation",
    "BeamSearch",
    "GNMTGlobalScorer",
    "TranslationBuilder",
    "PenaltyBuilder",
    "TranslationServer",
    "ServerModelError",
    "DecodeStrategy",
    "GreedySearch",
    "GreedySearchLM",
    "BeamSearchLM",
    "GeneratorLM",
]
