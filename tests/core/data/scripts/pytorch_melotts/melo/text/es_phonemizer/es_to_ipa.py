# Source: https://github.com/myshell-ai/MeloTTS/blob/209145371cff8fc3bd60d7be902ea69cbdb7965a/melo/text/es_phonemizer/es_to_ipa.py (copied unchanged below this line)
from .cleaner import spanish_cleaners
from .gruut_wrapper import Gruut

def es2ipa(text):
    e = Gruut(language="es-es", keep_puncs=True, keep_stress=True, use_espeak_phonemes=True)
    # text = spanish_cleaners(text)
    phonemes = e.phonemize(text, separator="")
    return phonemes


if __name__ == '__main__':
  print(es2ipa('¿Y a quién echaría de menos, en el mundo si no fuese a vos?'))