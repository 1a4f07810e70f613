# Source: https://github.com/myshell-ai/MeloTTS/blob/209145371cff8fc3bd60d7be902ea69cbdb7965a/melo/text/es_phonemizer/__init__.py (copied unchanged below this line)
