# Source: https://github.com/k2-fsa/icefall/blob/36e0420c7e3e849a25b3d24dbf913c424f3d23c9/icefall/ctc/__init__.py (copied unchanged below this line)
from .prepare_lang import (
    Lexicon,
    make_lexicon_fst_no_silence,
    make_lexicon_fst_with_silence,
)
from .topo import add_disambig_self_loops, add_one, build_standard_ctc_topo
from .utils import merge_tokens
