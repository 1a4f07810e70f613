# Source: https://github.com/sina-nabavi/PSMGD-VR-DeepSpeed/blob/f947af076403c4cbbcea7a9221365b14cb03cd5f/LibMTL/architecture/__init__.py (copied unchanged below this line)
from LibMTL.architecture.abstract_arch import AbsArchitecture
from LibMTL.architecture.HPS import HPS
from LibMTL.architecture.Cross_stitch import Cross_stitch
from LibMTL.architecture.MMoE import MMoE
from LibMTL.architecture.MTAN import MTAN
from LibMTL.architecture.CGC import CGC
from LibMTL.architecture.PLE import PLE
from LibMTL.architecture.DSelect_k import DSelect_k
from LibMTL.architecture.LTB import LTB

__all__ = ['AbsArchitecture',
           'HPS',
           'Cross_stitch',
           'MMoE',
           'MTAN',
           'CGC',
           'PLE',
           'DSelect_k',
           'LTB']