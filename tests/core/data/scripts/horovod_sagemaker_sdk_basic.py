# Source: https://github.com/aws/sagemaker-python-sdk/blob/35484d21a8f880a824129da467b1403ece3ea2b7/tests/data/horovod/hvd_basic.py (copied unchanged below this line)
import json
import os

import horovod.tensorflow as hvd

if __name__ == "__main__":

    hvd.init()

    with open(os.path.join("/opt/ml/model/rank-%s" % hvd.rank()), "w+") as f:
        basic_info = {"rank": hvd.rank(), "size": hvd.size()}

        json.dump(basic_info, f)
        print('Saved file "rank-%s": %s' % (hvd.rank(), basic_info))
