# Source: https://github.com/sina-nabavi/PSMGD-VR-DeepSpeed/blob/f947af076403c4cbbcea7a9221365b14cb03cd5f/LibMTL/weighting/__init__.py (copied unchanged below this line)
from LibMTL.weighting.abstract_weighting import AbsWeighting
from LibMTL.weighting.EW import EW
from LibMTL.weighting.GradNorm import GradNorm
from LibMTL.weighting.MGDA import MGDA
from LibMTL.weighting.UW import UW 
from LibMTL.weighting.DWA import DWA
from LibMTL.weighting.GLS import GLS
from LibMTL.weighting.GradDrop import GradDrop
from LibMTL.weighting.PCGrad import PCGrad
from LibMTL.weighting.GradVac import GradVac
from LibMTL.weighting.IMTL import IMTL
from LibMTL.weighting.CAGrad import CAGrad
from LibMTL.weighting.Nash_MTL import Nash_MTL
from LibMTL.weighting.RLW import RLW
from LibMTL.weighting.MoCo import MoCo
from LibMTL.weighting.Aligned_MTL import Aligned_MTL
from LibMTL.weighting.DB_MTL import DB_MTL
from LibMTL.weighting.STCH import STCH
from LibMTL.weighting.ExcessMTL import ExcessMTL
from LibMTL.weighting.FairGrad import FairGrad
from LibMTL.weighting.PSMGD import PSMGD
from LibMTL.weighting.EW_DS import EW_DS
from LibMTL.weighting.STL import STL
__all__ = ['AbsWeighting',
           'EW', 
           'GradNorm', 
           'MGDA',
           'UW',
           'DWA',
           'GLS',
           'GradDrop',
           'PCGrad',
           'GradVac',
           'IMTL',
           'CAGrad',
           'Nash_MTL',
           'RLW',
           'MoCo',
           'Aligned_MTL',
           'DB_MTL',
           'STCH',
           'ExcessMTL',
           'FairGrad',
           'PSMGD',
           'EW_DS',
           'STL']