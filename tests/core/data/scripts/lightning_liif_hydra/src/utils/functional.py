# Source: https://github.com/Luciennnnnnn/liif-lightning-hydra/blob/14352eb828193291f4331619fc5a550e4d322fec/src/utils/functional.py (copied unchanged below this line)
import torch

def make_coord(shape, ranges=None, flatten=True):
        """ Make coordinates at grid centers.
        """
        coord_seqs = []
        for i, n in enumerate(shape):
            if ranges is None:
                v0, v1 = -1, 1
            else:
                v0, v1 = ranges[i]
            r = (v1 - v0) / (2 * n)
            seq = v0 + r + (2 * r) * torch.arange(n).float()
            coord_seqs.append(seq)
        ret = torch.stack(torch.meshgrid(*coord_seqs), dim=-1)
        if flatten:
            ret = ret.view(-1, ret.shape[-1])
        return ret

def toCoordColorPair(img):
    coord = make_coord(img.shape[-2:])
    if not img.is_contiguous():
        img = img.contiguous()
    rgb = img.view(3, -1).permute(1, 0)
    return coord, rgb

def dflip(img):
    return img.transpose(-2, -1)